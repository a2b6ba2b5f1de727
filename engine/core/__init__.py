"""The game's pieces and records, no rule of play: the state, the board and its geometry,
decks, the seeded RNG, content models, commands, events, errors, the view models, and the
rulebook's index (engine/core/rulebook.py) through which every rule is reached. Every other
package builds on it; it imports none of them."""
