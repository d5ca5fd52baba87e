"""scoring.formatting: the one figure every page, projector and printout shows, the exact
value on hover, and the number the spreadsheets get."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from django.utils import translation

from scoring import formatting
from scoring.formatting import figure, figure_html, figure_value, signed_figure


def test_the_worked_examples_hold():
    with translation.override("en"):
        assert doctest.testmod(formatting).failed == 0


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(1, 3), "0,33"),
        (Fraction(2, 3), "0,67"),
        (Fraction(-2, 3), "−0,67"),
        (Fraction(5, 2), "2,50"),
        (Fraction(-1, 200), "−0,01"),  # half a hundredth: away from zero, as its opposite
        (Fraction(1, 200), "0,01"),
        (Fraction(-1, 201), "0,00"),  # rounds to nothing: no minus
        (Fraction(1234567, 3), "411522,33"),
        (Fraction(-12), "−12"),
        (0, "0"),
    ],
)
def test_a_figure_is_whole_or_two_decimals_with_a_real_minus(value, shown):
    with translation.override("uk"):
        assert figure(value) == shown
    assert "-" not in figure(value)  # never a hyphen for a minus


def test_a_signed_figure_has_a_plus_only_above_zero():
    assert signed_figure(Fraction(260, 3)) == "+86.67"
    assert signed_figure(Fraction(-260, 3)) == "−86.67"
    assert signed_figure(Fraction(1, 1000)) == "0.00"
    assert signed_figure(None) == ""


def test_the_exact_value_goes_on_hover_only_where_the_figure_differs():
    assert figure_html(Fraction(317, 3)) == '<span title="317/3">105.67</span>'
    assert figure_html(Fraction(-64, 3), sign=True) == '<span title="−64/3">−21.33</span>'
    assert figure_html(Fraction(260, 3), sign=True) == '<span title="+260/3">+86.67</span>'
    assert figure_html(12) == "12"
    assert figure_html(None) == ""


def test_every_figure_is_the_export_number_shown():
    for value in (Fraction(317, 3), Fraction(-1, 8), Fraction(7, 2), Fraction(1, 3)):
        with translation.override("en"):
            assert figure(value) == f"{figure_value(value):.2f}".replace("-", "−")
