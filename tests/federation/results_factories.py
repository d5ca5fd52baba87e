"""A valid pulka-tournament/1 document, for the tests of its checks and its pages."""

from __future__ import annotations


def valid_document() -> dict:
    seats = [
        {"person": "p1", "whists": "20/3", "score": "20/3", "place": 1},
        {"person": "p2", "whists": "-10/3", "score": "-10/3", "place": 2},
        {"person": "p3", "whists": "-10/3", "score": "-10/3", "place": 2},
    ]
    line = {"place": 1, "person": "p1", "total": "20/3", "tie_breaks": {}, "finalist": None}
    return {
        "format": "pulka-tournament/1",
        "site": "https://pulka.example",
        "exported_at": "2026-03-01T20:00:00+00:00",
        "tournament": {
            "id": 7,
            "url": None,
            "name": "Lviv Open",
            "date": "2026-03-01",
            "host": {"name": "Lviv Club", "city": "Lviv"},
            "rules": {"preset": "sochi", "pool_target": 10},
            "rounds": 2,
            "scoring": {"method": "whists", "caps": [], "caps_mirror": True, "bye_score": 0},
            "tie_breaks": ["adjusted_whists"],
            "lot": True,
            "finished": True,
        },
        "persons": {
            "p1": {"name": "Olena", "club": "Lviv Club", "team": "", "status": "active"},
            "p2": {"name": "Taras", "club": "Lviv Club"},
            "p3": {"name": "Iryna", "club": "Lviv Club", "federation": None},
        },
        "categories": [
            {"name": "Women", "eligibility": "chosen", "persons": ["p1", "p3"]},
        ],
        "rounds": [
            {
                "number": 1,
                "tables": [{"number": 1, "first_dealer": "p2", "seats": seats, "pulka": None}],
                "byes": [],
            }
        ],
        "standings": {"overall": [line], "categories": {"Women": [line]}},
    }
