"""The rulebook's index: which rule carries out each command, and the places where a later part
of the books joins a rule of an earlier part (docs/architecture.md).

Packages import downward only, so neither the dispatcher nor an earlier rule may import the rules
above it. Instead:
- COMMANDS: what apply hands a command to once it has checked who may give it (an answer to a
  decision, or a free command). A handler is `(ctx, cmd, force)`, force being the deck the
  command is for as apply found it (None where the rule works it out itself).
- ACTIONS: what an action command does once the card in play has taken it
  (engine/turn/cards.py). A handler is `(ctx, cmd, src, entry_do)`: the card part used and the
  team entry's sub-action, if any.
- Slots: an earlier rule calls the slot (a blast in a tile where vehicles stand, a step onto a
  minefield); the later rule's module fills it with its function.
Rule modules fill the tables with `answers`, `performs` and `Slot.fill` when they are imported;
engine/apply.py imports every rule package once, and the engine's face (engine/__init__.py) imports
engine/apply.py before it hands out any name, so all is in place before the first command.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])

COMMANDS: dict[Any, Callable[..., None]] = {}
ACTIONS: dict[type, Callable[..., None]] = {}


def _register(table: dict, keys: tuple) -> Callable[[F], F]:
    def fill(fn: F) -> F:
        for key in keys:
            if key in table:
                raise RuntimeError(f"{key} has two handlers: {table[key].__module__} and {fn.__module__}")
            table[key] = fn
        return fn
    return fill


def answers(*keys: Any) -> Callable[[F], F]:
    """Register the handler apply calls for these command types (or, for a command several rules
    take, (type, decision kind) pairs)."""
    return _register(COMMANDS, keys)


def performs(*types: type) -> Callable[[F], F]:
    """Register what these action commands do once a card part has taken them."""
    return _register(ACTIONS, types)


class Slot(Generic[P, R]):
    """One place where a later rule joins an earlier one: the earlier rule calls the slot, the
    later rule's module fills it."""

    __slots__ = ("_empty", "_fn", "filled_by", "name")

    def __init__(self, name: str, filled_by: str) -> None:
        self.name = name
        self.filled_by = filled_by

        def empty(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError(f"the slot {name} is empty: {filled_by} fills it once engine.apply is "
                               "imported (the first name read from engine does)")

        # what the slot calls until it is filled: the refusal, so a call makes no test of its own
        self._fn: Callable[P, R] = empty
        self._empty = empty

    def fill(self, fn: Callable[P, R]) -> Callable[P, R]:
        if self._fn is not self._empty:
            raise RuntimeError(f"the slot {self.name} is filled twice")
        self._fn = fn
        return fn

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self._fn(*args, **kwargs)


# --------------------------------------------------------------------- the core manual's actions, joined
screen_events: Slot[..., Any] = Slot(
    "screen_events", "engine/advanced/hidden_deployment.py screen: public lines never name a hidden soldier")
blast_aboard: Slot[..., None] = Slot(
    "blast_aboard", "engine/vehicles/damage.py blast_aboard: vehicles in a blasted tile and the men exposed on them")
first_aid: Slot[..., Any] = Slot(
    "first_aid", "engine/advanced/medic.py first_aid: a medic treats a man just hit")
score_dead_medic: Slot[..., bool] = Slot(
    "score_dead_medic", "engine/advanced/medic.py score_dead_medic: the VP for a medic killed")
drop_items: Slot[..., None] = Slot(
    "drop_items", "engine/battlefield/recovery.py drop: a dead man's cards worth a search stay in his tile")
roadblock_delta: Slot[..., int] = Slot(
    "roadblock_delta", "engine/vehicles/roadblocks.py target_delta: a target on a roadblock overlay")
roadblock_protect: Slot[..., int] = Slot(
    "roadblock_protect", "engine/vehicles/roadblocks.py protect: a roadblock's fighting position, fewer hits")
spot_on_contact: Slot[..., None] = Slot(
    "spot_on_contact", "engine/battlefield/close_combat.py spot_on_contact: a man and an enemy vehicle in one tile")
mine_walk: Slot[..., bool] = Slot("mine_walk", "engine/battlefield/mines.py walk: mines on a man's path")
mine_walk_to: Slot[..., bool] = Slot("mine_walk_to", "engine/battlefield/mines.py walk_to: mines on the way to a cell")
mine_turn: Slot[..., bool] = Slot("mine_turn", "engine/battlefield/mines.py turn: a man turning in a mined tile")
mine_vehicle_leaves: Slot[..., bool] = Slot(
    "mine_vehicle_leaves", "engine/battlefield/mines.py vehicle_leaves: a vehicle leaving or turning in a mined tile")
mine_vehicle_enters: Slot[..., bool] = Slot(
    "mine_vehicle_enters", "engine/battlefield/mines.py vehicle_enters: a vehicle rolling into a mined tile")
orders_completed: Slot[..., None] = Slot(
    "orders_completed", "engine/vehicles/orders.py after_complete: Armor Support, when a player meets his orders")
orders_turn_end: Slot[..., None] = Slot(
    "orders_turn_end", "engine/vehicles/orders.py turn_end: the vehicle book's orders checked at a turn's end")
orders_game_end: Slot[..., None] = Slot(
    "orders_game_end", "engine/vehicles/orders.py game_end: the vehicle book's orders settled at the end")

# --------------------------------------------------------------------- the advanced rules, joined
blast_vehicle: Slot[..., Any] = Slot(
    "blast_vehicle", "engine/vehicles/damage.py blast_vehicle: a weapon's blast on a vehicle")
rocket_vehicle: Slot[..., Any] = Slot(
    "rocket_vehicle", "engine/vehicles/rockets.py rocket_hit: an anti-tank rocket's hit location and penetration")
fire_incendiary: Slot[..., None] = Slot(
    "fire_incendiary", "engine/battlefield/incendiary.py fire_incendiary: a flamethrower or an incendiary round")
action_options: Slot[..., Any] = Slot(
    "action_options", "engine/legal.py action_options: the action commands the card in play allows")
anything_to_do: Slot[..., bool] = Slot(
    "anything_to_do", "engine/legal.py anything_to_do: whether the card in play allows any action command")

# --------------------------------------------------------------------- the vehicle book, joined
aboard_action: Slot[..., None] = Slot(
    "aboard_action", "engine/vehicles/actions.py perform: an action by a license plate or a man aboard")
thrown_off: Slot[..., None] = Slot(
    "thrown_off", "engine/battlefield/close_combat.py thrown_off: a vehicle's hull moves and enemies on its deck fall off")
smoke_trail: Slot[..., None] = Slot(
    "smoke_trail", "engine/vehicles/smoke.py lay_trail: a vehicle laying smoke enters a tile")
radio_spot: Slot[..., None] = Slot(
    "radio_spot", "engine/battlefield/artillery.py spot_for_soldiers: soldiers with radios mark what a vehicle marked")
vehicle_hit_plus: Slot[..., None] = Slot(
    "vehicle_hit_plus", "engine/vehicles/shoot.py hit_plus: a vehicle weapon's Hit+ goes where the player nominated")
firing_for: Slot[..., Any] = Slot(
    "firing_for", "engine/battlefield/recovery.py firing_for: a taken-over vehicle fires off its finder's deck")
