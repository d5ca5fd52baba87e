"""Old import path of the re-rate task, kept for tasks queued before the move (until 0.3)."""

from competition.rating.background import rerate_task  # noqa: F401
