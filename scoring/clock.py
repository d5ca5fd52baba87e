"""A table's clock as the pages show it: when its time runs out, or what is left while it
is paused (Pulka.ends_at, Pulka.paused_left, kept by the layer that runs the clock).

Pure: the caller passes `now`, so one reading serves a whole page and the tests need no
frozen time.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

WARNING = datetime.timedelta(minutes=10)  # the last minutes show in the warning colour


@dataclass(frozen=True)
class Clock:
    ends_at: datetime.datetime | None  # None while paused
    paused_left: datetime.timedelta | None
    now: datetime.datetime

    @property
    def paused(self) -> bool:
        return self.ends_at is None

    @property
    def left(self) -> datetime.timedelta:
        """The time left (never below zero)."""
        if self.ends_at is None:
            left = self.paused_left or datetime.timedelta(0)
        else:
            left = self.ends_at - self.now
        return max(left, datetime.timedelta(0))

    @property
    def seconds_left(self) -> int:
        return int(self.left.total_seconds())

    @property
    def is_out(self) -> bool:
        return not self.paused and self.ends_at is not None and self.ends_at <= self.now

    @property
    def is_warning(self) -> bool:
        return not self.is_out and self.left <= WARNING

    @property
    def shown(self) -> str:
        """What the clock reads before the browser counts it down: "1:05:09", "7:03"."""
        minutes, seconds = divmod(self.seconds_left, 60)
        hours, minutes = divmod(minutes, 60)
        if hours:
            return f"{hours}:{minutes:02d}:{seconds:02d}"
        return f"{minutes}:{seconds:02d}"


def clock_of(
    ends_at: datetime.datetime | None,
    paused_left: datetime.timedelta | None,
    now: datetime.datetime,
) -> Clock | None:
    """The clock, or None when there is none (never started, or not timed)."""
    if ends_at is None and paused_left is None:
        return None
    return Clock(ends_at=ends_at, paused_left=paused_left, now=now)


def last_deal(
    ends_at: datetime.datetime | None,
    deals_after_time: int | None,
    entered_before_end: int,
    now: datetime.datetime,
) -> int | None:
    """The number of the last deal a table may record once its time is out, or None while
    no rule limits it (no clock, a paused one, time not out yet, or no "last deal" rule).

    `entered_before_end`: how many of its deals were entered before `ends_at`. The rule
    lets `deals_after_time` more start: with 13 deals in time and 1 after (the deal in
    progress is the last), deal 14 is the last one.

    >>> end = datetime.datetime(2026, 1, 1, 12, 0)
    >>> last_deal(end, 1, 13, end + datetime.timedelta(minutes=1))
    14
    >>> last_deal(end, 1, 13, end - datetime.timedelta(minutes=1)) is None
    True
    """
    if ends_at is None or deals_after_time is None or now < ends_at:
        return None
    return entered_before_end + deals_after_time


@dataclass(frozen=True)
class TimeRule:
    """Where a table stands against its "last deal" rule: `last` is the last deal it may
    record (None: no limit now), `next_number` the deal it would record next."""

    last: int | None
    next_number: int

    @property
    def last_begun(self) -> bool:
        """The time is out and the next deal is the last one: the players are told."""
        return self.last is not None and self.next_number == self.last

    @property
    def over(self) -> bool:
        """The time is out and the last deal is recorded: no deal may be added."""
        return self.last is not None and self.next_number > self.last
