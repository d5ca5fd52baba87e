"""Player.sort_key: the alphabetical order of names (club.names.collation_key), filled for
every row, and the roster's default order by it."""

import unicodedata

from django.db import migrations, models

# club.names.collation_key as of this migration (a migration keeps its own copy).
_CYRILLIC_ORDER = "абвгґдеёєжзиіїйклмнопрстуўфхцчшщъыьэюя"
_RANKS = {
    **{digit: 0x0100 + n for n, digit in enumerate("0123456789")},
    **{letter: 0x0200 + n for n, letter in enumerate("abcdefghijklmnopqrstuvwxyz")},
    **{letter: 0x0800 + n for n, letter in enumerate(_CYRILLIC_ORDER)},
}


def _rank(char):
    if char in _RANKS:
        return _RANKS[char]
    if char in "'`ʼ’‘" or unicodedata.category(char).startswith("M"):
        return None
    if char.isspace() or unicodedata.category(char)[0] in "PZ":
        return 0x0001
    return min(0x1000 + ord(char), 0xFFFF)


def _key(name):
    tidy = " ".join(unicodedata.normalize("NFC", name).split())
    folded = unicodedata.normalize("NFC", tidy.casefold())
    primary = []
    for char in folded:
        for part in (char,) if char in _RANKS else unicodedata.normalize("NFD", char):
            rank = _rank(part)
            if rank is None or (rank == 0x0001 and primary[-1:] == [0x0001]):
                continue
            primary.append(rank)
    marks = [
        ord(char) if unicodedata.combining(char) else 1
        for char in unicodedata.normalize("NFD", folded)
    ]
    exact = [min(ord(char), 0xFFFF) for char in folded]
    return "".join(f"{rank:04x}" for rank in [*primary, 0, *marks, 0, *exact])[:512]


def fill_keys(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    for player in Player.objects.only("pk", "name").iterator():
        Player.objects.filter(pk=player.pk).update(sort_key=_key(player.name))


class Migration(migrations.Migration):
    dependencies = [("club", "0010_invitations_with_consent")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="sort_key",
            field=models.CharField(default="", editable=False, max_length=512),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterModelOptions(
            name="player",
            options={
                "ordering": ["sort_key", "pk"],
                "verbose_name": "player",
                "verbose_name_plural": "players",
            },
        ),
    ]
