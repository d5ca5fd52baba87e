"""Name the convention of every stored table: before rules/conventions.md a pulka's rules
had no `preset`, and every one of them was Sochi. A league restricted to one convention
filters by `rules -> preset` (competition.selectors.league_results), so the key must be there.
"""

from django.db import migrations


def name_sochi(apps, schema_editor):
    Pulka = apps.get_model("scoring", "Pulka")
    for pulka in Pulka.objects.only("pk", "rules").iterator(chunk_size=500):
        rules = pulka.rules if isinstance(pulka.rules, dict) else {}
        if "preset" not in rules:
            Pulka.objects.filter(pk=pulka.pk).update(rules={**rules, "preset": "sochi"})


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_deal_entry_key"),
    ]

    operations = [
        # Backwards: the key is kept, as the engine reads it; nothing to undo.
        migrations.RunPython(name_sochi, migrations.RunPython.noop),
    ]
