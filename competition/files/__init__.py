"""Prepared files. The old task path competition.files.build_file_task still resolves here
for tasks queued before the move (until 0.3)."""

from competition.files.services import build_file_task  # noqa: F401
