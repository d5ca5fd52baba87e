"""What changes what the federation counts, told to its rating list (federation.receivers).

``counting_changed`` is sent, inside the changing transaction, when a federation's persons,
links or member clubs change in a way that changes its rating list: a club joined or left,
a link was made, moved or undone, two persons were merged or one split, an event's "counts
for the federation" changed. Keyword argument: ``federation``.
"""

from django.dispatch import Signal

counting_changed = Signal()
