"""The one reader of numbers from requests: ASCII digits, within bounds, or nothing."""

import doctest

import pytest
from django import forms

from club import params
from club.models import Player
from club.params import IntegerField, ModelChoiceField, int_param, parse_int
from tests.conftest import make_club

REFUSED = ["", " ", "²", "٣", "１", "1_0", "+1", " 1", "1 ", "1\n", "1.0", "1e3", "0x1", "-"]


def test_the_examples_of_the_module_hold():
    assert doctest.testmod(params).failed == 0


@pytest.mark.parametrize("text", [*REFUSED, "9" * 19, "9" * 4301, None, 5, ["1"]])
def test_anything_but_ascii_digits_is_no_number(text):
    assert parse_int(text) is None
    assert parse_int(text, signed=True) is None


def test_a_minus_is_read_only_where_the_bounds_go_below_zero():
    assert int_param("-3", low=0, high=10) is None
    assert int_param("-3", low=-5, high=10) == -3


@pytest.mark.parametrize(("text", "expected"), [("0", None), ("1", 1), ("500", 500), ("501", None)])
def test_a_number_outside_its_bounds_is_absent(text, expected):
    assert int_param(text, low=1, high=500) == expected


class Form(forms.Form):
    tricks = IntegerField(min_value=0, max_value=10, required=False)
    whists = IntegerField(min_value=-5000, max_value=5000, required=False)


@pytest.mark.parametrize("text", ["²", "٣", "1_0", "9" * 4301, "-1"])
def test_the_form_field_refuses_what_int_would_read_or_choke_on(text):
    form = Form({"tricks": text})

    assert not form.is_valid()
    assert form.errors["tricks"]


def test_the_form_field_forgives_spaces_and_reads_a_negative_where_allowed():
    form = Form({"tricks": " 7 ", "whists": "-150"})

    assert form.is_valid(), form.errors
    assert form.cleaned_data == {"tricks": 7, "whists": -150}


@pytest.mark.django_db
def test_a_row_is_chosen_by_its_key_in_ascii_digits_only():
    club = make_club()
    player = Player.objects.create(club=club, name="Anna")
    field = ModelChoiceField(queryset=Player.objects.all())

    arabic_indic = "".join(chr(0x0660 + int(d)) for d in str(player.pk))  # int() reads it

    assert field.clean(str(player.pk)) == player
    for text in (arabic_indic, "²", "9" * 4301, "1_0"):
        with pytest.raises(forms.ValidationError):
            field.clean(text)
