"""The one way numbers are read from requests: query parameters, posted fields, form fields.

Python's own readers are too generous for input a user can send: ``str.isdigit()`` says yes
to "²", which ``int()`` refuses; ``int()`` takes Arabic-Indic digits ("٣"), underscores
("1_0"), a plus sign and spaces; and it refuses more than 4,300 digits with a ValueError.
Here a number is ASCII digits only, with a leading minus only where the bounds allow a
negative value, at most 18 digits, and within its bounds. Anything else is absent
(:func:`int_param`, for GET filters) or refused with a form error (:class:`IntegerField`,
for posted fields).
"""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

# 18 digits: any 64-bit integer the database stores, and no int() of a long string.
MAX_DIGITS = 18
_UNSIGNED = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_SIGNED = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")
#: The highest page number a list reads from ?page= (past the last page: the last page).
PAGE_MAX = 1_000_000


def parse_int(value: object, *, signed: bool = False) -> int | None:
    """The whole number written in `value` (ASCII digits, a minus if `signed`), else None.

    Example::

        >>> parse_int("42"), parse_int("²"), parse_int("٣"), parse_int("-1"), parse_int(" 1")
        (42, None, None, None, None)
        >>> parse_int("-1", signed=True), parse_int("9" * 19)
        (-1, None)
    """
    if not isinstance(value, str):
        return None
    pattern = _SIGNED if signed else _UNSIGNED
    if pattern.fullmatch(value) is None:
        return None
    return int(value)


def int_param(value: object, *, low: int, high: int) -> int | None:
    """A request's number between `low` and `high` (inclusive), or None: absent or unusable.

    A minus sign is read only when `low` is negative. For a GET filter, None means "as if it
    were not given".

    Example (the `deal` filter of a pulka's history)::

        >>> int_param("3", low=1, high=500), int_param("0", low=1, high=500)
        (3, None)
        >>> int_param("-1", low=-5, high=5), int_param("²", low=1, high=500)
        (-1, None)
    """
    number = parse_int(value, signed=low < 0)
    if number is None or not low <= number <= high:
        return None
    return number


class IntegerField(forms.IntegerField):
    """Django's IntegerField, reading only what :func:`parse_int` reads.

    Surrounding spaces are forgiven (a phone keyboard adds them); Unicode digits, signs
    where no negative value is allowed, and numbers too long to be meant are "invalid".
    Without bounds of its own it keeps to what a 64-bit column holds.
    """

    default_error_messages = {"invalid": _("Enter a whole number.")}

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip(" \t")
        if text in self.empty_values:
            return None
        signed = self.min_value is None or self.min_value < 0
        number = parse_int(text, signed=signed)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class ModelChoiceField(forms.ModelChoiceField):
    """Django's ModelChoiceField for integer keys, reading the key as :func:`parse_int` does
    (the database would read "٣" as 3 and choose that row)."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if parse_int(str(value)) is None:
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            )
        return super().to_python(value)
