"""`legal.anything_to_do`'s stop-39 cuts (issue 17) against the plain answer, the full listing
(`action_options`), over autoplayed games of the infantry scenarios the cuts were made for:

- the enemies a man's SHOOT, toss or Sight could aim at (`_Foes.spotted`, `_Foes.unseen`) are
  looked for when that question is asked, not when his questions are made, so a man whose cheaper
  question says yes has the soldiers scanned for neither; with none to aim at the question says
  no, as leaving it out did;
- `_parts` reads the card's parts in one loop, not through a filtered list made first."""
from __future__ import annotations

from collections import Counter

import pytest

from engine import legal
from engine.advanced.sources import acceptor
from engine.core.content import DO_SHOOT, DO_SIGHT, DO_TOSS
from engine.legal import action_options, anything_to_do
from tests.engine.autoplay_kit import autoplayed, shipped_catalog

GAMES = [("night-orchard", 1), ("night-orchard", 2), ("hedgerow-dawn", 3), ("hedgerow-dawn", 4)]
COMMANDS = 160


@pytest.mark.parametrize(("scenario", "seed"), GAMES)
def test_the_check_agrees_with_the_listing_for_every_force_and_part(scenario, seed):
    """At every state of the game, for each force, and for the card in play's force through each
    open part: the check says yes exactly when the listing has a command."""
    answers: Counter = Counter()
    for st in autoplayed(shipped_catalog(), scenario, seed, COMMANDS):
        for force in st.forces:
            want = next(iter(action_options(st, force)), None) is not None
            assert anything_to_do(st, force) == want, (scenario, seed, st.seq, force)
            answers[want] += 1
        if st.active is not None:
            for kind in {s.kind for s in st.active.sources}:  # closed parts too: they offer nothing
                want = next(iter(action_options(st, st.active.force, only_source=kind)), None) is not None
                assert anything_to_do(st, st.active.force, kind) == want, (scenario, seed, st.seq, kind)
                answers[kind, want] += 1
    assert answers[True] > 10 and answers[False] > 10, answers
    assert sum(n for k, n in answers.items() if isinstance(k, tuple) and not k[1]) > 5, answers


def test_making_a_mans_questions_scans_no_enemies(monkeypatch):
    """The aim scans are made only by the questions that need them, when asked: over autoplayed
    night-orchard states, making the questions of every man of the card's force (through each
    open part that takes a SHOOT, toss or Sight from him) scans no enemy, and asking them all
    gives the listing's answer for him. Fails if the scans are made again when the questions are."""
    scans: Counter = Counter()
    spotted, unseen = legal._Foes.spotted, legal._Foes.unseen

    def counted_spotted(self, side):
        scans["scan"] += 1
        return spotted(self, side)

    def counted_unseen(self, side):
        scans["scan"] += 1
        return unseen(self, side)

    monkeypatch.setattr(legal._Foes, "spotted", counted_spotted)
    monkeypatch.setattr(legal._Foes, "unseen", counted_unseen)
    made = 0
    aims = {DO_SHOOT, DO_TOSS, DO_SIGHT}
    for st in autoplayed(shipped_catalog(), "night-orchard", 5, COMMANDS):
        active = st.active
        if active is None or st.vehicles:
            continue
        seat = st.forces[active.force].seat
        for src in active.sources:
            if src.state == "closed":
                continue
            of = acceptor(st, active, src)
            for m, s in st.soldiers.items():
                acc = of(m)
                if s.status != "board" or s.controller != active.force or not acc & aims:
                    continue
                foes = legal._Foes(st, False)
                before = scans["scan"]
                checks = legal._soldier_checks(st, active, src.kind, m, seat, acc, foes)
                assert scans["scan"] == before, (st.seq, m, src.kind)
                made += 1
                want = any(True for _ in legal._soldier_options(st, active, src.kind, m, seat, acc))
                assert any(ask() for _, ask in checks) == want, (st.seq, m, src.kind)
    assert made > 20
