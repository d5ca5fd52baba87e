# The one-way house: Session is now scoring.Evening and League competition.League, on the
# same tables; only Django's idea of where they live changes (state only).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0002_leagues_and_caches"),
        ("scoring", "0003_evening"),
        ("competition", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name="League"),
                migrations.DeleteModel(name="Session"),
            ],
        ),
    ]
