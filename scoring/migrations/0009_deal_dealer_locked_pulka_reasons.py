"""Every deal stores who dealt it; a pulka can be locked; a judge's change says why.

The dealers of the deals stored so far are filled in from the rotation as the sheet has
always computed it (the first dealer, an override restarting it, then clockwise), so no
sheet changes. The column becomes required in the next migration.
"""

from django.db import migrations, models


def fill_dealers(apps, schema_editor):
    Pulka = apps.get_model("scoring", "Pulka")
    Seat = apps.get_model("scoring", "Seat")
    Deal = apps.get_model("scoring", "Deal")
    for pulka in Pulka.objects.order_by("pk").iterator():
        seats = Seat.objects.filter(pulka_id=pulka.pk).count()
        if not seats:
            continue
        current = pulka.first_dealer
        changed = []
        for deal in Deal.objects.filter(pulka_id=pulka.pk).order_by("number"):
            if deal.dealer is not None:
                current = deal.dealer
            else:
                deal.dealer = current
                changed.append(deal)
            current = (current + 1) % seats
        Deal.objects.bulk_update(changed, ["dealer"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0008_counted_evenings_and_deal_cap"),
    ]

    operations = [
        migrations.AddField(
            model_name="pulka",
            name="locked_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="locked at"),
        ),
        migrations.AddField(
            model_name="dealrevision",
            name="reason",
            field=models.TextField(blank=True, verbose_name="reason"),
        ),
        migrations.AddField(
            model_name="statuschange",
            name="reason",
            field=models.TextField(blank=True, verbose_name="reason"),
        ),
        migrations.AlterField(
            model_name="dealrevision",
            name="action",
            field=models.CharField(
                choices=[
                    ("created", "entered"),
                    ("changed", "changed"),
                    ("deleted", "deleted"),
                    ("inserted", "inserted"),
                ],
                max_length=8,
                verbose_name="action",
            ),
        ),
        migrations.RunPython(fill_dealers, migrations.RunPython.noop),
    ]
