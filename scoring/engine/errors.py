"""The one error type of the engine (rules/sochi.md §17.17 "Strictness"; spec "Errors").

Every input that breaks the pulka/1 format or the rule book is rejected as a whole with a
:class:`PulkaError` whose message names the deal (when there is one) and the problem in the
rule book's words. No option changes this module.
"""

from __future__ import annotations

__all__ = ["PulkaError"]


class PulkaError(ValueError):
    """A pulka, a deal or a rules object that cannot be scored.

    ``problem`` is the message without the deal prefix and ``deal_number`` the 1-based deal
    it is about (``None`` for a top-level problem); ``str(error)`` joins them.

    Example (a deal whose tricks do not add up, rules §1.1)::

        >>> e = PulkaError("tricks sum to 9, expected 10", deal_number=3)
        >>> str(e)
        'deal 3: tricks sum to 9, expected 10'
        >>> e.problem, e.deal_number
        ('tricks sum to 9, expected 10', 3)
        >>> str(PulkaError("rules: pool_target must be a positive whole number"))
        'rules: pool_target must be a positive whole number'
    """

    def __init__(self, problem: str, deal_number: int | None = None) -> None:
        self.problem = problem
        self.deal_number = deal_number
        message = problem if deal_number is None else f"deal {deal_number}: {problem}"
        super().__init__(message)

    def __str__(self) -> str:
        if self.deal_number is None:
            return self.problem
        return f"deal {self.deal_number}: {self.problem}"

    def __reduce__(self):  # keep the two attributes when pickled (e.g. by test runners)
        return (type(self), (self.problem, self.deal_number))
