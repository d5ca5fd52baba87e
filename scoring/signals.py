"""What scoring tells the layers above it. The one way results flow upward.

``results_changed`` is sent, inside the transaction that made the change, whenever the
result caches of a club's finished pulkas change from a date on: a pulka finished, was
reopened or abandoned, had a deal corrected, was imported, or its evening moved to
another date. Competition listens (competition.receivers) and re-rates the club from
that date. Keyword arguments: ``club`` (a club.models.Club) and ``since`` (a date).
"""

from django.dispatch import Signal

results_changed = Signal()
