# The one-way house: club.League and scoring.RatingSnapshot move here, on their own tables
# (state only: no row is copied), and their content types follow them.

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models

MOVED = [
    (("club", "session"), ("scoring", "evening")),
    (("club", "league"), ("competition", "league")),
    (("scoring", "ratingsnapshot"), ("competition", "ratingsnapshot")),
]


def move_content_types(apps, schema_editor):
    """Keep the admin's history and permissions of the moved models."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    for (old_app, old_model), (new_app, new_model) in MOVED:
        if not ContentType.objects.filter(app_label=new_app, model=new_model).exists():
            ContentType.objects.filter(app_label=old_app, model=old_model).update(
                app_label=new_app, model=new_model
            )


def restore_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for (old_app, old_model), (new_app, new_model) in MOVED:
        if not ContentType.objects.filter(app_label=old_app, model=old_model).exists():
            ContentType.objects.filter(app_label=new_app, model=new_model).update(
                app_label=old_app, model=old_model
            )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("club", "0002_leagues_and_caches"),
        ("scoring", "0003_evening"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="League",
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
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        ("start", models.DateField(verbose_name="first evening")),
                        ("end", models.DateField(verbose_name="last evening")),
                        (
                            "rule",
                            models.CharField(
                                choices=[
                                    ("sum", "the sum of whists"),
                                    ("average", "the average per pulka"),
                                    ("best", "the best pulkas"),
                                ],
                                default="sum",
                                max_length=8,
                                verbose_name="counting rule",
                            ),
                        ),
                        (
                            "best_count",
                            models.PositiveSmallIntegerField(
                                blank=True,
                                help_text="For the best pulkas rule.",
                                null=True,
                                verbose_name="best pulkas counted",
                            ),
                        ),
                        (
                            "cap",
                            models.PositiveIntegerField(
                                blank=True,
                                help_text=(
                                    "Whists of one pulka beyond this count at half "
                                    "(either way). Empty: no cap."
                                ),
                                null=True,
                                verbose_name="cap",
                            ),
                        ),
                        (
                            "min_pulkas",
                            models.PositiveSmallIntegerField(
                                default=1, verbose_name="pulkas needed to be ranked"
                            ),
                        ),
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
                                related_name="leagues",
                                to="club.club",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "league",
                        "verbose_name_plural": "leagues",
                        "db_table": "club_league",
                        "ordering": ["-start", "name"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("end__gte", models.F("start"))),
                                name="club_league_ends_after_start",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("cap__isnull", True), ("cap__gte", 1), _connector="OR"
                                ),
                                name="club_league_cap_positive",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    models.Q(("rule", "best"), _negated=True),
                                    ("best_count__gte", 1),
                                    _connector="OR",
                                ),
                                name="club_league_best_count",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingSnapshot",
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
                        ("date", models.DateField()),
                        ("seq", models.PositiveIntegerField()),
                        ("mu", models.FloatField()),
                        ("sigma", models.FloatField()),
                        ("rating", models.FloatField()),
                        ("delta", models.FloatField()),
                        (
                            "club",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="club.club",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="ratings",
                                to="club.player",
                            ),
                        ),
                        (
                            "pulka",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="ratings",
                                to="scoring.pulka",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "scoring_ratingsnapshot",
                        "ordering": ["club", "seq"],
                        "indexes": [
                            models.Index(fields=["player", "seq"], name="scoring_rating_player_seq"),
                            models.Index(fields=["club", "date"], name="scoring_rating_club_date"),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("pulka", "player"),
                                name="scoring_ratingsnapshot_unique_player",
                            )
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
