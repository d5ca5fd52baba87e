"""The "last deal" rule of a timed table (scoring.clock), counted without the database."""

import datetime

import pytest

from scoring.clock import TimeRule, last_deal

END = datetime.datetime(2026, 5, 1, 12, 0, tzinfo=datetime.UTC)
MINUTE = datetime.timedelta(minutes=1)


@pytest.mark.parametrize(
    ("ends_at", "after", "in_time", "now", "last"),
    [
        (None, 1, 13, END, None),  # no clock (or paused)
        (END, None, 13, END + MINUTE, None),  # no rule: the judge ends the table
        (END, 1, 13, END - MINUTE, None),  # time not out yet
        (END, 1, 13, END, 14),  # out at the very second: the deal in progress is the last
        (END, 1, 13, END + MINUTE, 14),
        (END, 2, 13, END + MINUTE, 15),  # two more deals
        (END, 0, 13, END + MINUTE, 13),  # none after the time
    ],
)
def test_the_last_deal_is_those_in_time_plus_the_rules_more(ends_at, after, in_time, now, last):
    assert last_deal(ends_at, after, in_time, now) == last


@pytest.mark.parametrize(
    ("last", "next_number", "begun", "over"),
    [(None, 5, False, False), (14, 13, False, False), (14, 14, True, False), (14, 15, False, True)],
)
def test_the_table_is_told_when_the_last_deal_has_begun_and_when_it_is_over(
    last, next_number, begun, over
):
    rule = TimeRule(last=last, next_number=next_number)

    assert (rule.last_begun, rule.over) == (begun, over)
