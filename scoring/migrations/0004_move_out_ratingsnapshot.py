# The one-way house: RatingSnapshot is now competition.RatingSnapshot, on the same table.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_evening"),
        ("competition", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name="RatingSnapshot")],
        ),
    ]
