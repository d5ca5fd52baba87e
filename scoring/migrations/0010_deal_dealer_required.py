from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0009_deal_dealer_locked_pulka_reasons"),
    ]

    operations = [
        migrations.AlterField(
            model_name="deal",
            name="dealer",
            field=models.PositiveSmallIntegerField(verbose_name="dealer (seat)"),
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.CheckConstraint(
                condition=models.Q(dealer__lte=3), name="scoring_deal_dealer_seat"
            ),
        ),
    ]
