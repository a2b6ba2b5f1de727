"""What a cached game holds (docs/app.md, Memory): a game whose state this process wrote keeps
its state without the text, and the text made again from the state's pieces when the state is
dropped is the stored document byte for byte; a state parsed from it equals the one kept."""
from __future__ import annotations

from bot.app import GameService, Where
from bot.app.documents import StateCodec
from tests.app.table import open_table
from tests.app.test_memory import play_round_robin


async def test_a_dropped_state_leaves_the_stored_text_and_parses_back_to_the_state(store, cat, clock):
    kept = GameService(store, cat, clock=clock, seed=lambda: 7)
    lean = GameService(store, cat, clock=clock, seed=lambda: 7, parsed_size=1)
    games = [(await open_table(kept, where=Where(channel_id=610 + n))).game_id for n in range(3)]
    twins = [(await open_table(lean, where=Where(channel_id=710 + n))).game_id for n in range(3)]
    dropped = 0
    for round_ in range(6):
        await play_round_robin(kept, games, 1, seed=round_)
        await play_round_robin(lean, twins, 1, seed=round_)
        for gid, twin in zip(games, twins):
            entry, stored = lean._cache[twin], await store.load_game(twin)
            if entry.state is None:  # dropped to text: the stored document, byte for byte
                dropped += 1
                assert entry.text == stored.state
            else:
                assert entry.text is None or entry.text == stored.state
                assert entry.text is not None or lean._codec.dumps_kept(entry.state) == stored.state
            if kept._cache[gid].state is not None:
                assert kept._cache[gid].text is None, "a state written here holds its text as pieces"
            mine = await lean.load_state(twin)  # parsed again if it was dropped
            assert mine.model_dump(exclude={"setup"}) == kept._cache[gid].state.model_dump(exclude={"setup"})
    assert dropped >= 6


async def test_a_state_read_from_the_store_keeps_its_text_beside_it(store, cat, clock):
    """A state parsed from the store was never written here: its entry keeps the stored text,
    and dropping it keeps that very text."""
    first = GameService(store, cat, clock=clock, seed=lambda: 7)
    gid = (await open_table(first, where=Where(channel_id=620))).game_id
    reader = GameService(store, cat, clock=clock, seed=lambda: 7, parsed_size=1)
    await reader.load_state(gid)
    stored = (await store.load_game(gid)).state
    assert reader._cache[gid].text == stored and reader._cache[gid].state is not None
    other = (await open_table(reader, where=Where(channel_id=621))).game_id
    assert reader._cache[gid].state is None and reader._cache[gid].text == stored
    assert reader._cache[other].text is None and reader._cache[other].state is not None


def test_the_codecs_kept_document_is_its_document(shipped):
    from tests.engine.autoplay_kit import autoplayed
    codec = StateCodec()
    for st in autoplayed(shipped, "tardieu-bombardment", 11, 40):
        assert codec.dumps_kept(st) is None  # a copy not yet written
        text = codec.dumps(st)
        assert codec.dumps_kept(st) == text
        assert codec.join(codec.known(codec.split(text)[0]), codec.split(text)[1]) == st
