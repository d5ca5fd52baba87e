# The one-way house: club.Session becomes scoring.Evening, on the same table (state only).

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0002_leagues_and_caches"),
        ("scoring", "0002_leagues_and_caches"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="Evening",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "date",
                            models.DateField(
                                default=django.utils.timezone.localdate, verbose_name="date"
                            ),
                        ),
                        (
                            "venue",
                            models.CharField(blank=True, max_length=120, verbose_name="venue"),
                        ),
                        ("notes", models.TextField(blank=True, verbose_name="notes")),
                        (
                            "created_at",
                            models.DateTimeField(
                                default=django.utils.timezone.now, editable=False
                            ),
                        ),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="evenings",
                                to="club.club",
                            ),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "evening",
                        "verbose_name_plural": "evenings",
                        "db_table": "club_session",
                        "ordering": ["-date", "-id"],
                        "indexes": [
                            models.Index(fields=["club", "-date"], name="club_session_by_date")
                        ],
                    },
                ),
                migrations.RemoveConstraint(
                    model_name="pulka", name="scoring_pulka_unique_table"
                ),
                migrations.RenameField(model_name="pulka", old_name="session", new_name="evening"),
                migrations.AlterField(
                    model_name="pulka",
                    name="evening",
                    field=models.ForeignKey(
                        db_column="session_id",
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pulkas",
                        to="scoring.evening",
                    ),
                ),
                migrations.AlterModelOptions(
                    name="pulka",
                    options={
                        "ordering": ["evening", "table"],
                        "verbose_name": "pulka",
                        "verbose_name_plural": "pulkas",
                    },
                ),
                migrations.AddConstraint(
                    model_name="pulka",
                    constraint=models.UniqueConstraint(
                        fields=("evening", "table"), name="scoring_pulka_unique_table"
                    ),
                ),
            ],
        ),
    ]
