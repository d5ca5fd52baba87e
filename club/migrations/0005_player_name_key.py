"""Player.name_key: the case-folded name (club.names.name_key), filled for every row.

Two existing players whose names differ only by case or spacing would share a key. Neither
is lost: the later one (higher id) gets its key suffixed with two spaces and its id, which
no tidied name can produce, and a warning is logged; an owner can then merge the two on the
roster's merge page.
"""

import logging
import unicodedata

from django.db import migrations, models

logger = logging.getLogger("club.migrations")


def _key(name: str) -> str:
    # club.names.name_key as of this migration (a migration keeps its own copy).
    tidy = " ".join(unicodedata.normalize("NFC", name).split())
    return unicodedata.normalize("NFC", tidy.casefold())


def fill_keys(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    taken: set[tuple[int, str]] = set()
    for player in Player.objects.order_by("club_id", "pk").iterator():
        key = _key(player.name)
        if (player.club_id, key) in taken:
            clash = key
            key = f"{key}  #{player.pk}"
            logger.warning(
                "club %s: player %s (%r) has the same name as an earlier player (%r); "
                "kept apart with the key %r: merge them on the roster",
                player.club_id,
                player.pk,
                player.name,
                clash,
                key,
            )
        taken.add((player.club_id, key))
        player.name_key = key
        player.save(update_fields=["name_key"])


class Migration(migrations.Migration):
    dependencies = [("club", "0004_club_results_version")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=255),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
