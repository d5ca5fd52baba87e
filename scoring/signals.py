"""What scoring tells the layers above it. The one way results flow upward.

``results_changed`` is sent, inside the transaction that made the change, whenever the
result caches of a club's finished pulkas change from a date on: a pulka finished, was
reopened or abandoned, had a deal corrected, was imported, or its evening moved to
another date. Competition listens (competition.receivers) and re-rates the club from
that date; the federation (federation.receivers) rebuilds its rating list. Keyword
arguments: ``club`` (a club.models.Club), ``since`` (a date) and ``counted`` (whether the
changed results count in the club's leagues and ratings: False for a table of an evening
that does not count, such as a tournament's, which only a federation's open event reads;
a switch of an evening's counting is True, since the club's ratings change either way).
"""

from django.dispatch import Signal

results_changed = Signal()
