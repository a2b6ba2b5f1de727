"""Help and rules texts through the use-cases (issue 16): a topic and a rules term are found by
their words as a player types them (spaces or hyphens, any case), and every other name a rules
text lists ("take cover", "on target") finds that text."""
from __future__ import annotations

import pytest

from bot.app import Refused
from bot.app.help import load_texts


async def test_every_topic_and_every_name_of_a_rules_term_finds_its_text(service):
    topics, rules = load_texts()
    for key, t in topics.items():
        assert (await service.help(key.replace("-", " ").upper())).ephemeral == [t.shown()]
    for key, t in rules.items():
        for name in (key, key.replace("-", " "), *t.aliases, *(a.title() for a in t.aliases)):
            assert (await service.rules(name)).ephemeral == [t.shown()], name
    with pytest.raises(Refused, match="No rules summary for 'cover please'"):
        await service.rules("cover please")
    with pytest.raises(Refused, match="There is no help topic 'tanks'"):
        await service.help("tanks")
