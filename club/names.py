"""One spelling of a person's name on the roster, and the key that tells two names apart.

Every path that creates or renames a player (the roster's forms, the pulka/1 import) runs
the name through `normalise_name`, and the roster stores `name_key(name)` beside it, unique
in a club. The key is what "the same name" means: the same letters after Unicode
normalisation, whitespace tidied and case folded with `str.casefold()` (full Unicode, so
"ОЛЕНА" and "Олена" are one name on SQLite as on PostgreSQL, where the databases' own
case-insensitive comparisons disagree).

    >>> normalise_name("  Андрій \\t Шевченко ")
    'Андрій Шевченко'
    >>> name_key("ТАРАС") == name_key("Тарас")
    True
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from club.errors import ServiceError

NAME_MAX_LENGTH = 60

# Invisible characters that would make two names look alike but differ, or reorder the text
# around them: controls (Cc: NUL, escape...), format characters (Cf: zero-width space and
# joiners, bidi marks and overrides, the byte order mark, soft hyphen) and lone surrogates (Cs,
# which no database stores). Whitespace controls (tab, new line) are whitespace instead: they
# are tidied into single spaces like the rest.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


class InvalidName(ServiceError):
    """A name that cannot go on the roster, in words the user can read (field "name")."""


def _tidy(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split())


def normalise_name(name: str, *, max_length: int = NAME_MAX_LENGTH) -> str:
    """The name as the roster stores it: NFC, trimmed, inner whitespace collapsed.

    Raises InvalidName for an empty name, an invisible or control character, a name with no
    letter or digit, or one longer than the roster keeps.
    """
    tidy = _tidy(name)
    for char in tidy:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise InvalidName(
                _(
                    "The name %(name)s contains an invisible or control character "
                    "(%(code)s): type the name again without it."
                )
                % {"name": _printable(tidy), "code": f"U+{ord(char):04X}"},
                field="name",
            )
    if not tidy:
        raise InvalidName(_("Write the player's name."), field="name")
    if not any(unicodedata.category(char)[0] in "LN" for char in tidy):
        raise InvalidName(
            _("A name needs at least one letter or digit: %(name)s has none.") % {"name": tidy},
            field="name",
        )
    if len(tidy) > max_length:
        raise InvalidName(
            _("The name %(name)s is too long for the roster: at most %(max)s characters.")
            % {"name": tidy, "max": max_length},
            field="name",
        )
    return tidy


def name_key(name: str) -> str:
    """What makes two names the same: the tidied name, case folded (then NFC again, since
    folding can decompose a letter). Never refuses; stored as Player.name_key."""
    return unicodedata.normalize("NFC", _tidy(name).casefold())


def _printable(name: str) -> str:
    """The name with its refused characters shown as their code points, for a message."""
    return "".join(
        f"<U+{ord(char):04X}>" if unicodedata.category(char) in _REFUSED_CATEGORIES else char
        for char in name
    )
