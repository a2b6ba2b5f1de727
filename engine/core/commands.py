"""Commands: everything a player can tell the engine, as data, with one canonical text form.

The text form is the script grammar (docs/script.md) and the Discord slash commands say the
same things. `parse_command` reads a line; `str(command)` writes it back.
"""
# no `from __future__ import annotations`: pydantic reads these models' types, not strings to compile (docs/architecture.md)

import re
import shlex
import unicodedata
from dataclasses import dataclass
from operator import is_
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from pydantic_core import SchemaValidator

from engine.core.board import DIRS
from engine.core.errors import RuleError, UsageError
from engine.core.words import new_list

Via = Literal["tag", "team", "note", "identity"]  # identity: a command card's identity box (tactics modules)

# --------------------------------------------------------------------------- what a command may say
# Shapes are checked here, when a command is read or built; whether what it names is in the
# game (a soldier, a vehicle, a card, a tile) is checked by engine/core/references.py before any rule.

MAX_LINE = 400  # characters in a command line
MAX_WORDS = 40  # words in one command (and items in one list: cards, soldiers)
MAX_WORD = 48  # characters in a word: the longest card id is 18, with +P= and :ACTION under 30
MAX_DIGITS = 6  # dog tags have three digits, plates three or more (a second of a type: 1601); none needs more
MAX_ID = 10 ** MAX_DIGITS - 1
MAX_CELL = 9_999  # inches from the board's north-west corner
MAX_SEAT = 99
MAX_SEAT_NAME = 64  # a Discord display name has at most 32
NUMBER = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")  # ASCII digits only: int() would take "١٢" and "1_0"
CELL_WORD = re.compile(r"\(?([0-9]{1,4})\s*,\s*([0-9]{1,4})\)?")
# a line shlex would split at its spaces only (no quote, no backslash, no whitespace but shlex's
# own): str.split gives the same words without shlex's character-by-character reader
_PLAIN_LINE = re.compile(r"[^\"'\\\s]*(?:[ \t\r\n]+[^\"'\\\s]*)*")
_UNPRINTABLE = {"Cc", "Cf", "Cs", "Co", "Cn"}  # control, format, lone surrogate, private use, unassigned


def shown(word: object) -> str:
    """A word as a refusal quotes it: escaped (a lone surrogate or a control character prints as
    its code) and cut short, so a 100,000-character word makes a one-line message."""
    if isinstance(word, str) and len(word) > 24:
        return f"{word[:24]!r}… ({len(word)} characters)"
    try:
        text = repr(word)
    except ValueError:  # an int of more digits than Python will print
        return "a number too long to show"
    return text if len(text) <= 60 else text[:60] + "…"


def text_problem(text: str) -> str | None:
    """Why `text` is not text a command may carry (None: it is): a lone surrogate (it cannot be
    stored or sent), a control or invisible formatting character."""
    if text.isascii() and text.isprintable():
        return None
    for ch in text:
        if unicodedata.category(ch) in _UNPRINTABLE and ch not in "\t\n\r":
            return f"{shown(text)} holds the character {ch!a}, which is not text a command may carry."
    return None


def number(word: str, what: str, noun: str = "a number") -> int:
    """A whole number written with the ASCII digits 0-9, at most MAX_DIGITS of them; `what` and
    `noun` word the refusal ("the target must be a dog tag number, not 'x'")."""
    if NUMBER.fullmatch(word):
        return int(word)
    if word.isascii() and word.isdigit():
        raise UsageError(f"{what} has at most {MAX_DIGITS} digits, not {len(word)}.")
    if word.isdigit() or word.isnumeric():
        raise UsageError(f"{what} is written with the digits 0-9, not {shown(word)}.")
    raise UsageError(f"{what} must be {noun}, not {shown(word)}.")


@dataclass(frozen=True)
class Names:
    """A command field that names something in the game; engine/core/references.py checks it is there
    and of this kind before any rule runs. unit: a soldier or a vehicle (either may act)."""

    kind: Literal["man", "vehicle", "unit", "card", "tile"]


def _id(n: int) -> int:
    if not 0 <= n <= MAX_ID:
        raise UsageError(f"{shown(n)} is not a dog tag or a plate: they are numbers from 0 to {MAX_ID}.")
    return n


def _word(w: str) -> str:
    if not w:
        raise UsageError("an empty word where a name or an id belongs.")
    if len(w) > MAX_WORD:
        raise UsageError(f"{shown(w)} is too long for a name or an id (at most {MAX_WORD} characters).")
    problem = text_problem(w)
    if problem:
        raise UsageError(problem)
    return w


def _facing(w: str) -> str:
    if w not in DIRS:
        raise UsageError(f"a facing is one of {' '.join(DIRS)}, not {shown(w)}.")
    return w


def _coord(n: int) -> int:
    if not 0 <= n <= MAX_CELL:
        raise UsageError(f"{shown(n)} is off any board: a cell is x,y inches from 0 to {MAX_CELL}.")
    return n


def _seat(n: int) -> int:
    if not 0 <= n <= MAX_SEAT:
        raise UsageError(f"there is no seat {shown(n)}.")
    return n


def _phase(n: int) -> int:
    if n not in (1, 2, 3):
        raise UsageError(f"a phase is 1, 2 or 3, not {shown(n)}.")
    return n


def _count(n: int) -> int:
    if not 0 <= n <= 999:
        raise UsageError(f"{shown(n)} is out of range: a turn or a slot is a number from 0 to 999.")
    return n


def _few(items: list) -> list:
    if len(items) > MAX_WORDS:
        raise UsageError(f"{len(items)} items in one command; at most {MAX_WORDS}.")
    return items


Man = Annotated[int, AfterValidator(_id), Names("man")]
Vehicle = Annotated[int, AfterValidator(_id), Names("vehicle")]
Unit = Annotated[int, AfterValidator(_id), Names("unit")]
CardId = Annotated[str, AfterValidator(_word), Names("card")]
TileId = Annotated[str, AfterValidator(_word), Names("tile")]
Word = Annotated[str, AfterValidator(_word)]
Facing = Annotated[str, AfterValidator(_facing)]
Coord = Annotated[int, AfterValidator(_coord)]
Cell = tuple[Coord, Coord]
SeatNo = Annotated[int, AfterValidator(_seat)]
Count = Annotated[int, AfterValidator(_count)]
PhaseNo = Annotated[int, AfterValidator(_phase)]
Cards = Annotated[list[CardId], AfterValidator(_few)]


class Cmd(BaseModel):
    # each command's schema is built when first used, not at import: a start builds only its own
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    seat: SeatNo = 0  # who gives the command

    @model_validator(mode="wrap")
    @classmethod
    def _refused(cls, data: Any, handler) -> "Cmd":
        """Every malformed command is the engine's refusal (UsageError), naming the bad field,
        not pydantic's ValidationError: a front end shows it to the player as it is."""
        try:
            return handler(data)
        except ValidationError as exc:
            raise _refusal(cls, exc) from None

    def words(self) -> list[str]:
        raise NotImplementedError

    def __str__(self) -> str:
        return " ".join(self.words())


def _refusal(cls: type[Cmd], exc: ValidationError) -> UsageError:
    """Cmd._refused's refusal of a command its fields' validation refused."""
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(x) for x in err["loc"]) or "the command"
    verb = cls.model_fields["type"].default if "type" in cls.model_fields else cls.__name__
    return UsageError(f"`{verb}`: {where} cannot be {shown(err.get('input'))} ({err['msg']}).")


def _built(cls: type[Cmd], **fields: Any) -> Cmd:
    """`cls(**fields)`, for the parser: validated by the model's own schema with no wrap around it
    (BaseModel.__init__ and Cmd._refused's wrap validator are a third of a MoveCmd's making), its
    refusal turned into the same UsageError. Only for a class whose schema is the model under
    Cmd._refused and nothing else (`_unwrapped`); any other is made by its constructor.
    tests/engine/test_command_building38.py holds it to the constructor, refusals included."""
    make = _UNWRAPPED.get(cls)
    if make is not None:
        try:
            return make(fields)
        except ValidationError as exc:
            raise _refusal(cls, exc) from None
    cmd = cls(**fields)  # the first of its class builds its schema (defer_build)
    if cls not in _UNWRAPPED:
        _UNWRAPPED[cls] = _unwrapped(cls)
    return cmd


def _unwrapped(cls: type[Cmd]):
    """The validator of a command class's model schema inside Cmd._refused's wrap, when the wrap
    is all there is around it (a model validator of its own, after it, has a constructor's say)."""
    schema = cls.__pydantic_core_schema__
    inner = schema.get("schema") if schema["type"] == "function-wrap" else None
    wrap = getattr(schema.get("function", {}).get("function"), "__func__", None)
    if inner is None or inner["type"] != "model" or inner["cls"] is not cls or wrap is not Cmd._refused.__func__:
        return None
    return SchemaValidator(inner, inner.get("config")).validate_python


_UNWRAPPED: dict[type, Any] = {}


def _via(via: str | None) -> list[str]:
    return [via] if via else []


class Plan(Cmd):
    """Place one card per phase, face down (`-` leaves a phase empty for the shortfall)."""
    type: Literal["plan"] = "plan"
    cards: Annotated[list[CardId | None], AfterValidator(_few)]
    declare: dict[CardId, Word] = Field(default_factory=dict)  # card -> action for multi-action cards
    force: Word | None = None  # which of the seat's decks (squad or vehicle); None: the one holding the cards
    extra: dict[PhaseNo, CardId] = Field(default_factory=dict)  # officers: phase (1-3) -> an extra card there

    def words(self):
        out = [] if self.force is None else ["for", self.force]
        for c in self.cards:
            if c is None:
                out.append("-")
            elif c in self.declare:
                out.append(f"{c}:{self.declare[c]}")
            else:
                out.append(c)
        for ph, c in sorted(self.extra.items()):
            out.append(f"+{ph}={c}" + (f":{self.declare[c]}" if c in self.declare else ""))
        return ["plan", *out]


class Declare(Cmd):
    type: Literal["declare"] = "declare"
    card: CardId
    action: Word

    def words(self):
        return ["declare", self.card, self.action]


class Unhold(Cmd):
    type: Literal["unhold"] = "unhold"
    cards: Cards

    def words(self):
        return ["unhold", *self.cards]


class Keep(Cmd):
    """Leave held cards where they are (answers the held-card window)."""
    type: Literal["keep"] = "keep"

    def words(self):
        return ["keep"]


class MoveCmd(Cmd):
    type: Literal["move"] = "move"
    serial: Unit
    cell: Cell | None = None
    tile: TileId | None = None
    cover: bool = False
    exit: bool = False
    area: Word | None = None
    facing: Facing | None = None
    release: bool = False
    take: Man | None = None
    via: Via | None = None

    def words(self):
        if self.exit:
            dest = ["exit"] + ([self.area] if self.area else [])
        elif self.tile:
            dest = [self.tile + (":cover" if self.cover else "")]
        else:
            dest = [f"{self.cell[0]},{self.cell[1]}"]
        extra = (["face", self.facing] if self.facing else []) + (["release"] if self.release else []) \
            + (["take", str(self.take)] if self.take is not None else [])
        return [*_via(self.via), "move", str(self.serial), *dest, *extra]


class Charge(Cmd):
    type: Literal["charge"] = "charge"
    serial: Unit
    target: Man
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "charge", str(self.serial), str(self.target)]


class Face(Cmd):
    type: Literal["face"] = "face"
    serial: Unit
    facing: Facing
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "face", str(self.serial), self.facing]


class SightCmd(Cmd):
    type: Literal["sight"] = "sight"
    serial: Unit
    target: Unit | None = None
    square: TileId | None = None  # sight a tile for area fire (Hell on Wheels, Sighting Squares)
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "sight", str(self.serial), *([str(self.target)] if self.target else []),
                *([self.square] if self.square else [])]


class DrawCmd(Cmd):
    type: Literal["draw"] = "draw"
    serial: Unit
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "draw", str(self.serial)]


class CoverCmd(Cmd):
    type: Literal["cover"] = "cover"
    serial: Unit
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "cover", str(self.serial)]


class RallyCmd(Cmd):
    type: Literal["rally"] = "rally"
    serial: Unit
    target: Man
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "rally", str(self.serial), str(self.target)]


class HoldCmd(Cmd):
    type: Literal["hold"] = "hold"
    serial: Unit
    cards: Cards
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "hold", str(self.serial), *self.cards]


class ShootCmd(Cmd):
    type: Literal["shoot"] = "shoot"
    serial: Unit
    target: Unit
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "shoot", str(self.serial), str(self.target)]


class TossCmd(Cmd):
    type: Literal["toss"] = "toss"
    serial: Unit
    target: Unit
    at: Cell | None = None
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "toss", str(self.serial), str(self.target),
                *(["at", f"{self.at[0]},{self.at[1]}"] if self.at else [])]


# --------------------------------------------------------------------------- vehicles and crews
# `serial` is who acts: a crewman's dog tag, or the vehicle's license plate for its own actions
# (the crewman at the position the action needs carries it out).


class VMove(Cmd):
    """Drive the vehicle toward a tile (Open, or `road` along a road; `back` one square back)."""
    type: Literal["vmove"] = "vmove"
    serial: Unit
    tile: TileId
    road: bool = False
    back: bool = False
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "vmove", str(self.serial), self.tile, *(["road"] if self.road else []),
                *(["back"] if self.back else [])]


class VTurn(Cmd):
    """Turn the hull in its tile, up to four compass points."""
    type: Literal["vturn"] = "vturn"
    serial: Unit
    facing: Facing
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "vturn", str(self.serial), self.facing]


class Turret(Cmd):
    type: Literal["turret"] = "turret"
    serial: Unit
    facing: Facing
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "turret", str(self.serial), self.facing]


class MovePlus(Cmd):
    """Save movement up: a MOVE for a Move+ marker (2 squares), or, `double`, two MOVEs of one
    part of the card for a Move++ marker (3 squares; written `moveplusplus`)."""
    type: Literal["moveplus"] = "moveplus"
    serial: Unit
    via: Via | None = None
    double: bool = False

    def words(self):
        return [*_via(self.via), "moveplusplus" if self.double else "moveplus", str(self.serial)]


class Unpin(Cmd):
    type: Literal["unpin"] = "unpin"
    serial: Unit
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "unpin", str(self.serial)]


class Fire(Cmd):
    """Fire a vehicle's weapon ("main" or a machine gun's id) at a soldier, a vehicle, or a
    sighted tile (area rounds: HE, smoke, fire)."""
    type: Literal["fire"] = "fire"
    serial: Unit
    weapon: Word
    target: Unit | None = None
    square: TileId | None = None
    via: Via | None = None

    @model_validator(mode="after")
    def _one_target(self) -> "Fire":
        if (self.target is None) == (self.square is None):
            raise UsageError("`fire` aims at a soldier or vehicle, or at a tile: one of them.")
        return self

    def words(self):
        return [*_via(self.via), "fire", str(self.serial), self.weapon,
                str(self.target) if self.target is not None else self.square]


class Load(Cmd):
    """Loader: a round Ready -> In Hand (name the ammo), or In Hand -> In Breach; `back`: one of
    those steps undone (In Breach -> In Hand -> Ready Ammo), to change rounds."""
    type: Literal["load"] = "load"
    serial: Unit
    ammo: Word | None = None
    back: bool = False
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "load", str(self.serial), *([self.ammo] if self.ammo else []),
                *(["back"] if self.back else [])]


class Acquire(Cmd):
    type: Literal["acquire"] = "acquire"
    serial: Unit
    target: Unit
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "acquire", str(self.serial), str(self.target)]


class Unbutton(Cmd):
    type: Literal["unbutton"] = "unbutton"
    serial: Unit
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "unbutton", str(self.serial)]


class Button(Cmd):
    type: Literal["button"] = "button"
    serial: Unit
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "button", str(self.serial)]


class HullDown(Cmd):
    type: Literal["hulldown"] = "hulldown"
    serial: Unit
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "hulldown", str(self.serial)]


class VCover(Cmd):
    """The vehicle takes cover."""
    type: Literal["vcover"] = "vcover"
    serial: Unit
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "vcover", str(self.serial)]


class Mount(Cmd):
    type: Literal["mount"] = "mount"
    serial: Man
    plate: Vehicle
    post: Word | None = None
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "mount", str(self.serial), str(self.plate), *([self.post] if self.post else [])]


class Dismount(Cmd):
    type: Literal["dismount"] = "dismount"
    serial: Man
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "dismount", str(self.serial)]


class Shift(Cmd):
    """A crewman moves to another place on his vehicle's panel."""
    type: Literal["shift"] = "shift"
    serial: Man
    post: Word
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "shift", str(self.serial), self.post]


class Repair(Cmd):
    type: Literal["repair"] = "repair"
    serial: Unit
    location: Word
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "repair", str(self.serial), self.location]


class Extinguish(Cmd):
    type: Literal["extinguish"] = "extinguish"
    serial: Unit
    location: Word
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "extinguish", str(self.serial), self.location]


VEHICLE_COMMANDS = (VMove, VTurn, Turret, MovePlus, Unpin, Fire, Load, Acquire, Unbutton, Button, HullDown,
                    VCover, Mount, Dismount, Shift, Repair, Extinguish)


class ReactCmd(Cmd):
    """Play a react card from the hand, after an opponent's action."""
    type: Literal["react"] = "react"
    card: CardId

    def words(self):
        return ["react", self.card]


class PreemptCmd(Cmd):
    """Play a preempt card against an opponent's revealed card, naming the enemy soldiers who
    must act first."""
    type: Literal["preempt"] = "preempt"
    card: CardId
    target: CardId
    soldiers: Annotated[list[Man], AfterValidator(_few)]

    def words(self):
        return ["preempt", self.card, self.target, *(str(s) for s in self.soldiers)]


class Then(Cmd):
    """A preempt's follow-up: one of your soldiers acts against one of the men just made to act."""
    type: Literal["then"] = "then"
    serial: Man
    target: Man

    def words(self):
        return ["then", str(self.serial), str(self.target)]


class Skip(Cmd):
    """Let a react or preempt window (or a preempt's follow-up) go by."""
    type: Literal["skip"] = "skip"

    def words(self):
        return ["skip"]


class AlwaysPass(Cmd):
    """A player's setting, at any time: never be asked about react or preempt cards (on), or be asked (off)."""
    type: Literal["alwayspass"] = "alwayspass"
    on: bool = True

    def words(self):
        return ["alwayspass", "on" if self.on else "off"]


class Done(Cmd):
    """Finish the part of the card in use (dog tag, team bubble or narrator box)."""
    type: Literal["done"] = "done"

    def words(self):
        return ["done"]


class Pass(Cmd):
    """Finish the whole card: whatever is left of it goes unused."""
    type: Literal["pass"] = "pass"

    def words(self):
        return ["pass"]


class HitPlus(Cmd):
    type: Literal["hitplus"] = "hitplus"
    target: Unit  # a vehicle weapon's burst may go on to a vehicle (engine/vehicles/shoot.py)

    def words(self):
        return ["hitplus", str(self.target)]


class Pay(Cmd):
    type: Literal["pay"] = "pay"
    cards: Cards

    def words(self):
        return ["pay", *self.cards]


class Decline(Cmd):
    """Refuse a red narrator box's cost: the card is cancelled."""
    type: Literal["decline"] = "decline"

    def words(self):
        return ["decline"]


class FightCmd(Cmd):
    type: Literal["fight"] = "fight"
    card: CardId
    target: Man

    def words(self):
        return ["fight", self.card, str(self.target)]


class Capture(Cmd):
    type: Literal["capture"] = "capture"
    victim: Man
    escort: Man | None = None

    def words(self):
        return ["capture", str(self.victim), *(["by", str(self.escort)] if self.escort else [])]


class KillCmd(Cmd):
    type: Literal["kill"] = "kill"
    victim: Man

    def words(self):
        return ["kill", str(self.victim)]


class Reslot(Cmd):
    """Tactics modules: move a soldier to another slot of his own team panel (engine/advanced/teams.py)."""
    type: Literal["reslot"] = "reslot"
    serial: Man
    slot: Count

    def words(self):
        return ["reslot", str(self.serial), str(self.slot)]


def _seat_name(name: str) -> str:
    if not 1 <= len(name) <= MAX_SEAT_NAME or not name.strip():
        raise UsageError(f"a player's name has 1 to {MAX_SEAT_NAME} characters, not {shown(name)}.")
    problem = text_problem(name)
    if problem:
        raise UsageError(problem)
    return name


class SeatName(Cmd):
    """The seat changes hands (a front end's replacement, a player leaving, a late joiner): the
    game's texts name the new player from here on (engine/turn/seat_names.py). Not in the script
    grammar: only a front end's organiser gives it."""
    type: Literal["seatname"] = "seatname"
    name: Annotated[str, AfterValidator(_seat_name)]

    def words(self):
        return ["seatname", self.name]


class Stay(Cmd):
    """A released prisoner stays where he is instead of making his free move."""
    type: Literal["stay"] = "stay"

    def words(self):
        return ["stay"]


# --------------------------------------------------------------------------- equipment (engine/infantry/equipment.py)


class UseCmd(Cmd):
    """A SHOOT with an equipment card: throw smoke onto a cell, or fire a weapon at a target."""
    type: Literal["use"] = "use"
    serial: Unit
    item: Word
    target: Unit | None = None
    at: Cell | None = None
    via: Via | None = None

    @model_validator(mode="after")
    def _one_aim(self) -> "UseCmd":
        if (self.target is None) == (self.at is None):
            raise UsageError("`use` needs either a target or a cell (at x,y): one of them.")
        return self

    def words(self):
        aim = [str(self.target)] if self.target is not None else ["at", f"{self.at[0]},{self.at[1]}"]
        return [*_via(self.via), "use", str(self.serial), self.item, *aim]


# --------------------------------------------------------------------------- vehicle battlefield (issue 9)
# The vehicle book's battlefield: close combat against vehicles (engine/battlefield/close_combat.py), artillery
# and radios (engine/battlefield/artillery.py), pop smoke (vehicles), handing off and recovering equipment.
# Actions go through the card in play (a `via`); the others are free commands.


class AssailCmd(Cmd):
    """Free: a soldier in an enemy vehicle's tile says which compartment he attacks in the close
    combat at the phase's end, and whether he drops a grenade in rather than shooting."""
    type: Literal["assail"] = "assail"
    serial: Man
    plate: Vehicle
    part: Literal["hull", "turret", "cabin"]
    grenade: bool = False

    def words(self):
        return ["assail", str(self.serial), str(self.plate), self.part, *(["grenade"] if self.grenade else [])]


class CallCmd(Cmd):
    """Free, once radio contact is made: call artillery of a bought kind onto a tile (a lettered
    marker pair: one on the tile, one on the sighting track), or a fake call to bluff."""
    type: Literal["call"] = "call"
    serial: Unit  # the radio operator's dog tag or the vehicle's plate
    kind: Word  # ordnance chart id
    tile: TileId
    fake: bool = False
    smoke: bool = False  # a smoke round instead of shells (artillery of 3 blast checks or more)
    relay: Unit | None = None  # passed on through this friendly set (a radio man's dog tag, a plate)

    def words(self):
        return ["call", str(self.serial), self.kind, self.tile, *(["fake"] if self.fake else []),
                *(["smoke"] if self.smoke else []), *(["relay", str(self.relay)] if self.relay else [])]


class AdjustCmd(Cmd):
    """A SIGHT action for an artillery call: its marker climbs one row of the sighting track. With
    the Sight that brings it On Target the caller may name the order in which the men on foot in
    the tile draw (`order`: dog tags; the men he leaves out follow in the default order)."""
    type: Literal["adjust"] = "adjust"
    serial: Unit
    letter: Word
    via: Via | None = None
    order: Annotated[list[Man], AfterValidator(_few)] = Field(default_factory=new_list)

    def words(self):
        return [*_via(self.via), "adjust", str(self.serial), self.letter,
                *(["order", *(str(s) for s in self.order)] if self.order else [])]


class BarrageCmd(Cmd):
    """Free and secret: plan a heavy artillery or rocket barrage for a later turn on a landmark."""
    type: Literal["barrage"] = "barrage"
    kind: Word
    turn: Count
    tile: TileId
    smoke: bool = False  # smoke instead of shells

    def words(self):
        return ["barrage", self.kind, str(self.turn), self.tile, *(["smoke"] if self.smoke else [])]


class PopSmokeCmd(Cmd):
    """A SHOOT action for a vehicle: pop smoke (a 2x smoke marker in its tile and a take cover)."""
    type: Literal["popsmoke"] = "popsmoke"
    serial: Unit  # the plate, or the crewman who pops it
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "popsmoke", str(self.serial)]


class HandOffCmd(Cmd):
    """A MOVE action: a soldier hands an equipment card to a friend beside him."""
    type: Literal["handoff"] = "handoff"
    serial: Man
    item: Word
    to: Man
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "handoff", str(self.serial), self.item, str(self.to)]


class RecoverCmd(Cmd):
    """A MOVE action: search the tile for abandoned equipment (an identity check), or take over an
    abandoned vehicle or gun (`plate`)."""
    type: Literal["recover"] = "recover"
    serial: Man
    item: Word | None = None
    plate: Vehicle | None = None
    via: Via | None = None

    @model_validator(mode="after")
    def _one_thing(self) -> "RecoverCmd":
        if (self.item is None) == (self.plate is None):
            raise UsageError("`recover` needs either an item or a vehicle's plate: one of them.")
        return self

    def words(self):
        return [*_via(self.via), "recover", str(self.serial), self.item if self.item is not None else str(self.plate)]


class ClimbCmd(Cmd):
    """A MOVE action: a soldier walks to an enemy vehicle (when not in its tile already) and climbs
    onto its deck, or on up onto its turret, to fight at its hatches (SMG close combat)."""
    type: Literal["climb"] = "climb"
    serial: Man
    plate: Vehicle
    part: Literal["hull", "turret"] = "hull"
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "climb", str(self.serial), str(self.plate), *(["turret"] if self.part == "turret" else [])]


class LayMinesCmd(Cmd):
    """A MOVE action: a vehicle with a load of mines, or a man aboard it, lays one minefield of
    its load (two tokens, face down) in a map square beside the vehicle (engine/battlefield/mines.py)."""
    type: Literal["laymines"] = "laymines"
    serial: Unit  # the plate, or a man aboard
    tile: TileId
    tokens: list[Word] = Field(min_length=2, max_length=2)
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "laymines", str(self.serial), self.tile, "+".join(self.tokens)]


class ClearMinesCmd(Cmd):
    """A MOVE action: a soldier with a mine detector lifts the minefield in his tile or a tile
    beside his (engine/battlefield/mines.py)."""
    type: Literal["clearmines"] = "clearmines"
    serial: Man
    tile: TileId
    via: Via | None = None

    def words(self):
        return [*_via(self.via), "clearmines", str(self.serial), self.tile]


BATTLEFIELD_ACTIONS = (AdjustCmd, PopSmokeCmd, HandOffCmd, RecoverCmd, ClimbCmd, LayMinesCmd, ClearMinesCmd)
BATTLEFIELD_FREE = (AssailCmd, CallCmd, BarrageCmd)


Command = Annotated[
    Union[Plan, Declare, Unhold, Keep, MoveCmd, Charge, Face, SightCmd, DrawCmd, CoverCmd, RallyCmd, HoldCmd,
          ShootCmd, TossCmd, VMove, VTurn, Turret, MovePlus, Unpin, Fire, Load, Acquire, Unbutton, Button,
          HullDown, VCover, Mount, Dismount, Shift, Repair, Extinguish, Done, Pass, HitPlus, Pay, Decline,
          FightCmd, Capture, KillCmd, Stay, ReactCmd, PreemptCmd, Then, Skip, AlwaysPass, Reslot, UseCmd,
          AssailCmd, CallCmd, AdjustCmd, BarrageCmd, PopSmokeCmd, HandOffCmd, RecoverCmd, ClimbCmd, LayMinesCmd,
          ClearMinesCmd, SeatName],
    Field(discriminator="type"),
]

ACTION_COMMANDS = (MoveCmd, Charge, Face, SightCmd, DrawCmd, CoverCmd, RallyCmd, HoldCmd, ShootCmd, TossCmd,
                   *VEHICLE_COMMANDS, UseCmd, *BATTLEFIELD_ACTIONS)

# --------------------------------------------------------------------------- parsing the text form

GRAMMAR = """\
plan [for FORCE] CARD|- CARD|- CARD|- [+P=CARD]   place one card per phase
                                 CARD:ACTION declares a multi-action card
                                 FORCE: which deck, when you have a squad and vehicles
                                 +P=CARD: an officer's extra card beside the one on phase P
declare CARD ACTION              say which action a multi-action card is used for
unhold CARD...  |  keep          take held cards back into the hand, or leave them
[tag|team|note] move S DEST [face DIR] [release] [take P]
                                 DEST: a tile (12A), a tile's cover (12A:cover), a cell (x,y), or exit [AREA]
[tag|team|note] charge S T       move in a straight line into combat contact with T
[tag|team|note] face S DIR       turn (DIR: n ne e se s sw w nw)
[tag|team|note] sight S [T|TILE] sight the closest unspotted enemy (T only when the rules give a choice);
                                 TILE: a Sight marker on it for area fire (HE, smoke and fire rounds)
[tag|team|note] draw S           draw cards
[tag|team|note] cover S          take cover
[tag|team|note] rally S T        rally pinned soldier T (S himself first if S is pinned)
[tag|team|note] hold S CARD...   hold cards under S
[tag|team|note] shoot S T        shoot at spotted enemy T
[tag|team|note] toss S T [at x,y] toss a grenade at spotted enemy T (blast moved to x,y)
done                             finish the part of the card in use
pass                             finish the whole card
hitplus T                        after a Hit+: where the next shot goes
pay CARD... | decline            pay a red narrator box's cost, or cancel the card
fight CARD T                     play a fight card against T
capture V [by E] | kill V        at the end of a fight: take V prisoner (escorted by E) or kill him
stay                             a released prisoner stays put
vehicles (ACTOR: a crewman's dog tag, or the vehicle's plate for its own action):
[via] vmove ACTOR TILE [road] [back]   drive toward a tile (along a road; one square back)
[via] vturn ACTOR DIR            turn the hull in its tile (up to four compass points)
[via] turret ACTOR DIR           turn the turret
[via] moveplus ACTOR | unpin ACTOR    save movement up (a Move+ marker) | shed a Pin marker
[via] moveplusplus ACTOR         two MOVEs of one part of the card saved up as a Move++ marker
[via] fire ACTOR WEAPON T|TILE   fire "main" or a machine gun at soldier or vehicle T, or a sighted tile
[via] load ACTOR [AMMO]          a round Ready -> In Hand (naming it), or In Hand -> In Breach
[via] load ACTOR back            one loading step undone: In Breach -> In Hand -> Ready Ammo
[via] acquire ACTOR T | unbutton C | button C | hulldown ACTOR | vcover ACTOR
[via] mount S PLATE [POST] | dismount S | shift C POST | repair C LOCATION | extinguish C LOCATION"""


# Advanced cards (engine/advanced/react.py, engine/advanced/preempt.py): kept out of GRAMMAR until the Discord /act
# tree has these verbs (tests/discord/test_tree.py holds the two equal); scripts accept them.
ADVANCED_GRAMMAR = """\
react CARD                       play a react card after an opponent's action
preempt CARD ON_CARD S...        preempt an opponent's revealed card: S... must act first
then S T                         a preempt's follow-up: your S acts against T, one of the men who acted
skip                             let a react or preempt chance (or a follow-up) go by
alwayspass on|off                never (on) or again (off) be asked about react and preempt cards
use S ITEM T | use S ITEM at X,Y a SHOOT with equipment: fire a rifle grenade or rocket at T, throw smoke at x,y
reslot S N                       while placing: move S to slot N of his team panel (he must qualify)"""
TILE_WORD = re.compile(r"^L?[0-9]{1,3}[ABab]$")


def _cell(word: str) -> tuple[int, int]:
    m = CELL_WORD.fullmatch(word)
    if not m:
        raise UsageError(f"a cell is written x,y in inches from the north-west corner (0-{MAX_CELL}), "
                         f"not {shown(word)}.")
    return int(m.group(1)), int(m.group(2))


def _dir(word: str) -> str:
    w = word.lower()
    if w not in DIRS:
        raise UsageError(f"a facing is one of {' '.join(DIRS)}, not {shown(word)}.")
    return w


def read_words(line: str) -> list[str]:
    """A command line's words, refused (UsageError, naming the bad part) unless it is a line of
    valid text within the caps: MAX_LINE characters, MAX_WORDS words of at most MAX_WORD."""
    if not isinstance(line, str):
        raise UsageError(f"a command is a line of text, not {type(line).__name__}.")
    if len(line) > MAX_LINE:
        raise UsageError(f"a command line has at most {MAX_LINE} characters; this one has {len(line)}.")
    problem = text_problem(line)
    if problem:
        raise UsageError(problem)
    # printable ASCII holds no whitespace but the space: without a quote or backslash it is plain
    # at once, and the pattern is asked only of the rest
    plain = line.isascii() and line.isprintable() and '"' not in line and "'" not in line and "\\" not in line
    try:
        words = line.split() if plain or _PLAIN_LINE.fullmatch(line) else shlex.split(line.strip())
    except ValueError as exc:
        raise UsageError(f"cannot read {shown(line)}: {exc}.") from None
    if len(words) > MAX_WORDS:
        raise UsageError(f"a command has at most {MAX_WORDS} words; this one has {len(words)}.")
    for w in words:
        if not w:
            raise UsageError('an empty word ("") in the command: every word must say something.')
        if len(w) > MAX_WORD:
            raise UsageError(f"{shown(w)} is too long for a word of a command (at most {MAX_WORD} characters).")
    return words


def parse_command(line: str, seat: int = 0, resolve=None) -> Cmd:
    """Read one command line. `resolve` maps a soldier word (dog tag or name) to a serial."""
    global _last_read
    cmd = _read_command(line, seat, resolve)
    _last_read = (cmd, _contents(cmd))
    return cmd


# The command parse_command read last, with what it held when its constructor validated it:
# engine/core/references.py does not validate that very command again while it holds the same
# (`as_read`). A command is frozen, but the lists and dicts in it are not, and a command made by
# model_copy(update=...) or model_construct (another object) was never validated.
_last_read: tuple = (None, ())


def _holders(cls: type[Cmd]) -> tuple[str, ...]:
    """The fields of a command model whose values may be lists or dicts (by their annotations:
    validation makes nothing else one), kept per model."""
    got = _HOLDERS.get(cls)
    if got is None:
        got = _HOLDERS[cls] = tuple(name for name, info in cls.model_fields.items() if _may_hold(info.annotation))
    return got


_HOLDERS: dict[type, tuple[str, ...]] = {}


def _may_hold(annotation) -> bool:
    """Whether a value of this annotation may be (or hold) a list or a dict."""
    if annotation in (list, dict) or get_origin(annotation) in (list, dict):
        return True
    return any(_may_hold(a) for a in get_args(annotation) if isinstance(a, type) or get_origin(a) is not None)


def _contents(cmd: Cmd) -> tuple | list:
    """A command's field values, then for each of its fields that may hold a list or dict
    (_holders) the value's size and items (and a dict's values), in one sequence compared by
    identity: the other fields hold ints, strings, bools, tuples of ints or None when validated,
    so a value put there since is another object. (A size is a small int, one object per value:
    a list that changed size shows at its size; one of over 256 items may show as changed when it
    is not, and is validated again.)"""
    data = cmd.__dict__
    cls = type(cmd)
    holders = _HOLDERS.get(cls)
    if holders is None:
        holders = _holders(cls)
    if not holders:
        return tuple(data.values())
    out = [*data.values()]
    for name in holders:
        v = data.get(name)
        if type(v) is list:
            out.append(len(v))
            out += v
        elif type(v) is dict:
            out.append(len(v))
            out += v
            out += v.values()
    return out


def as_read(cmd: Cmd) -> bool:
    """Whether `cmd` is the command parse_command read last (validated by its constructor then),
    holding the very same values and items as it did then."""
    last, held = _last_read
    if last is not cmd:
        return False
    now = _contents(cmd)
    return len(now) == len(held) and all(map(is_, now, held))


def _read_command(line: str, seat: int, resolve) -> Cmd:
    """parse_command's reading (each command it makes is validated by its constructor)."""
    words = read_words(line)
    if not words:
        raise RuleError("empty command.")
    via = None
    if words[0].lower() in ("tag", "team", "note", "identity"):
        via = words.pop(0).lower()
        if not words:
            raise RuleError("say what to do after tag/team/note.")
    verb = words[0].lower()
    args = words[1:]

    def soldier(word: str, what: str = "a soldier") -> int:
        if resolve is not None:
            return resolve(word)
        return number(word, what, "a dog tag number")

    def need(n: int, usage: str) -> None:
        if len(args) < n:
            raise RuleError(f"usage: {usage}")

    if via and verb not in _VIA_VERBS:
        raise RuleError("tag, team and note go before an action (move, sight, shoot ...).")
    # the verbs scripts and players give most first (each verb is one branch: the order changes no answer)
    if verb == "move":
        need(2, "move SOLDIER DEST [face DIR] [release] [take PRISONER]")
        s = soldier(args[0])
        rest = args[1:]
        kw: dict = {}
        d = rest.pop(0)
        if d.lower() == "exit":
            kw["exit"] = True
            if rest and rest[0].lower() not in ("face", "release", "take"):
                kw["area"] = rest.pop(0).upper()
        elif "," in d:  # tiles never hold a comma: this is meant as a cell
            kw["cell"] = _cell(d)
        else:
            tile, _, mode = d.partition(":")
            kw["tile"] = tile.upper()
            if mode:
                if mode.lower() != "cover":
                    raise RuleError(f"after a tile, only :cover is understood, not :{mode}.")
                kw["cover"] = True
        while rest:
            w = rest.pop(0).lower()
            if w == "face" and rest:
                kw["facing"] = _dir(rest.pop(0))
            elif w == "release":
                kw["release"] = True
            elif w == "take" and rest:
                kw["take"] = soldier(rest.pop(0), "the prisoner")
            else:
                raise UsageError(f"unexpected {shown(w)} in move; usage: move SOLDIER DEST [face DIR] [release] [take P]")
        return _built(MoveCmd, seat=seat, serial=s, via=via, **kw)
    if verb == "plan":
        need(1, "plan [for FORCE] CARD CARD CARD(use - for an empty phase)")
        cards, declare, force, extra = [], {}, None, {}
        if args[0].lower() == "for":
            need(3, "plan for FORCE CARD CARD CARD")
            force, args = args[1], args[2:]
        for w in args:
            if w.startswith("+"):
                m = re.fullmatch(r"\+([1-3])=([^:]+)(?::(\w+))?", w)
                if not m:
                    raise UsageError(f"an extra card is written +PHASE=CARD (e.g. +2=101-C3), not {shown(w)}.")
                extra[int(m.group(1))] = m.group(2).upper()
                if m.group(3):
                    declare[m.group(2).upper()] = m.group(3).lower()
                continue
            if w == "-":
                cards.append(None)
                continue
            if ":" in w:
                c, a = w.split(":", 1)
                if not c or not a:
                    raise UsageError(f"{shown(w)}: a card with its action is written CARD:ACTION (e.g. 101-C3:move).")
                declare[c.upper()] = a.lower()
                w = c
            cards.append(w.upper())
        return _built(Plan, seat=seat, cards=cards, declare=declare, force=force, extra=extra)
    if verb == "pass":
        return _built(Pass, seat=seat)
    if verb == "sight":
        need(1, "sight SOLDIER [TARGET|TILE]")
        if len(args) > 1 and TILE_WORD.match(args[1]):
            return _built(SightCmd, seat=seat, serial=soldier(args[0]), square=args[1].upper(), via=via)
        return _built(SightCmd, seat=seat, serial=soldier(args[0]),
                        target=soldier(args[1], "the target") if len(args) > 1 else None, via=via)
    if verb == "draw":
        need(1, "draw SOLDIER")
        return _built(DrawCmd, seat=seat, serial=soldier(args[0]), via=via)
    if verb == "face":
        need(2, "face SOLDIER DIR")
        return _built(Face, seat=seat, serial=soldier(args[0]), facing=_dir(args[1]), via=via)
    if verb == "shoot":
        need(2, "shoot SOLDIER TARGET")
        return _built(ShootCmd, seat=seat, serial=soldier(args[0]), target=soldier(args[1], "the target"), via=via)
    if verb == "done":
        return _built(Done, seat=seat)
    if verb == "cover":
        need(1, "cover SOLDIER")
        return _built(CoverCmd, seat=seat, serial=soldier(args[0]), via=via)
    if verb in _BATTLEFIELD_VERB_SET:
        return _battlefield_command(verb, args, seat, via, soldier)
    if verb in _VEHICLE_USAGE:
        return _vehicle_command(verb, args, seat, via, soldier)
    if verb == "use":
        return _use_command(args, seat, via, soldier)
    if verb == "declare":
        need(2, "declare CARD ACTION")
        return _built(Declare, seat=seat, card=args[0].upper(), action=args[1].lower())
    if verb == "unhold":
        need(1, "unhold CARD...")
        return _built(Unhold, seat=seat, cards=[a.upper() for a in args])
    if verb == "keep":
        return _built(Keep, seat=seat)
    if verb == "charge":
        need(2, "charge SOLDIER TARGET")
        return _built(Charge, seat=seat, serial=soldier(args[0]), target=soldier(args[1], "the target"), via=via)
    if verb == "rally":
        need(2, "rally SOLDIER TARGET")
        return _built(RallyCmd, seat=seat, serial=soldier(args[0]), target=soldier(args[1], "the soldier to rally"), via=via)
    if verb == "hold":
        need(2, "hold SOLDIER CARD...")
        return _built(HoldCmd, seat=seat, serial=soldier(args[0]), cards=[a.upper() for a in args[1:]], via=via)
    if verb == "toss":
        need(2, "toss SOLDIER TARGET [at x,y]")
        at = None
        if len(args) >= 4 and args[2].lower() == "at":
            at = _cell(args[3])
        elif len(args) > 2:
            raise RuleError("usage: toss SOLDIER TARGET [at x,y]")
        return _built(TossCmd, seat=seat, serial=soldier(args[0]), target=soldier(args[1], "the target"), at=at, via=via)
    if verb == "reslot":  # tactics modules (engine/advanced/teams.py)
        need(2, "reslot SOLDIER SLOT")
        slot = number(args[1], "a slot (0 for the panel's first)")
        return _built(Reslot, seat=seat, serial=soldier(args[0]), slot=slot)
    if verb == "hitplus":
        need(1, "hitplus TARGET")
        return _built(HitPlus, seat=seat, target=soldier(args[0], "the target"))
    if verb == "pay":
        need(1, "pay CARD...")
        return _built(Pay, seat=seat, cards=[a.upper() for a in args])
    if verb == "decline":
        return _built(Decline, seat=seat)
    if verb == "fight":
        need(2, "fight CARD TARGET")
        return _built(FightCmd, seat=seat, card=args[0].upper(), target=soldier(args[1], "the target"))
    if verb == "capture":
        need(1, "capture VICTIM [by ESCORT]")
        esc = soldier(args[2], "the escort") if len(args) >= 3 and args[1].lower() == "by" else None
        return _built(Capture, seat=seat, victim=soldier(args[0], "the prisoner"), escort=esc)
    if verb == "kill":
        need(1, "kill VICTIM")
        return _built(KillCmd, seat=seat, victim=soldier(args[0], "the soldier"))
    if verb == "stay":
        return _built(Stay, seat=seat)
    if verb == "react":
        need(1, "react CARD")
        return _built(ReactCmd, seat=seat, card=args[0].upper())
    if verb == "preempt":
        need(3, "preempt CARD ON_CARD SOLDIER...")
        return _built(PreemptCmd, seat=seat, card=args[0].upper(), target=args[1].upper(),
                          soldiers=[soldier(a, "an enemy soldier") for a in args[2:]])
    if verb == "then":
        need(2, "then SOLDIER TARGET")
        return _built(Then, seat=seat, serial=soldier(args[0]), target=soldier(args[1], "the target"))
    if verb == "skip":
        return _built(Skip, seat=seat)
    if verb == "alwayspass":
        if args and args[0].lower() not in ("on", "off"):
            raise RuleError("usage: alwayspass on|off")
        return _built(AlwaysPass, seat=seat, on=not args or args[0].lower() == "on")
    raise UsageError(f"unknown command {shown(verb)}. Commands:\n{GRAMMAR}\n{ADVANCED_GRAMMAR}\n{BATTLEFIELD_GRAMMAR}")


_VEHICLE_USAGE = {  # the vehicle verbs, each with its usage
    "vmove": "vmove ACTOR TILE [road] [back]", "vturn": "vturn ACTOR DIR", "turret": "turret ACTOR DIR",
    "moveplus": "moveplus ACTOR", "moveplusplus": "moveplusplus ACTOR", "unpin": "unpin ACTOR", "fire": "fire ACTOR WEAPON TARGET",
    "load": "load ACTOR [AMMO]", "acquire": "acquire ACTOR TARGET", "unbutton": "unbutton CREWMAN",
    "button": "button CREWMAN", "hulldown": "hulldown ACTOR", "vcover": "vcover ACTOR",
    "mount": "mount SOLDIER PLATE [POST]", "dismount": "dismount SOLDIER", "shift": "shift CREWMAN POST",
    "repair": "repair CREWMAN LOCATION", "extinguish": "extinguish CREWMAN LOCATION",
}


def _vehicle_command(verb: str, args: list[str], seat: int, via, soldier) -> Cmd:
    usage = _VEHICLE_USAGE[verb]
    need = usage.count(" ") - usage.count("[")
    if len(args) < need:
        raise RuleError(f"usage: {usage}")
    actor = soldier(args[0], "who acts")
    kw = {"seat": seat, "serial": actor, "via": via}
    if verb == "vmove":
        flags = {a.lower() for a in args[2:]}
        if flags - {"road", "back"}:
            raise RuleError(f"usage: {usage}")
        return _built(VMove, tile=args[1].upper(), road="road" in flags, back="back" in flags, **kw)
    if verb in ("vturn", "turret"):
        return _built(VTurn if verb == "vturn" else Turret, facing=_dir(args[1]), **kw)
    if verb == "fire":
        if TILE_WORD.match(args[2]):
            return _built(Fire, weapon=args[1].lower(), square=args[2].upper(), **kw)
        return _built(Fire, weapon=args[1].lower(), target=soldier(args[2], "the target"), **kw)
    if verb == "load":
        if len(args) > 1 and args[-1].lower() == "back":
            if len(args) > 2:
                raise RuleError(f"usage: {usage}, or load ACTOR back (back names no round: the one in hand or "
                                "in the breach comes out)")
            return _built(Load, back=True, **kw)
        return _built(Load, ammo=args[1].upper() if len(args) > 1 else None, **kw)
    if verb == "acquire":
        return _built(Acquire, target=soldier(args[1], "the target"), **kw)
    if verb == "mount":
        return _built(Mount, plate=number(args[1], "the vehicle's plate", "a dog tag number"), post=args[2].lower() if len(args) > 2 else None, **kw)
    if verb == "shift":
        return _built(Shift, post=args[1].lower(), **kw)
    if verb in ("repair", "extinguish"):
        return _built(Repair if verb == "repair" else Extinguish, location=args[1].lower(), **kw)
    if verb == "moveplusplus":
        return _built(MovePlus, double=True, **kw)
    return _built({"moveplus": MovePlus, "unpin": Unpin, "unbutton": Unbutton, "button": Button, "hulldown": HullDown,
                   "vcover": VCover, "dismount": Dismount}[verb], **kw)


def _use_command(args: list[str], seat: int, via, soldier) -> Cmd:
    """`use S ITEM T | use S ITEM at x,y` (equipment, engine/infantry/equipment.py)."""
    if len(args) == 3:
        return _built(UseCmd, seat=seat, serial=soldier(args[0]), item=args[1].lower(),
                      target=soldier(args[2], "the target"), via=via)
    if len(args) == 4 and args[2].lower() == "at":
        return _built(UseCmd, seat=seat, serial=soldier(args[0]), item=args[1].lower(), at=_cell(args[3]), via=via)
    raise RuleError("usage: use SOLDIER ITEM TARGET  |  use SOLDIER ITEM at x,y")


MINE_TOKENS = ("at", "gp", "fake", "booby")  # mine tokens (engine/battlefield/mines.py TOKENS)


BATTLEFIELD_GRAMMAR = """\
assail S PLATE hull|turret|cabin [grenade]   in an enemy vehicle's tile: the compartment S attacks
call ACTOR KIND TILE [fake|smoke] [relay R]  after radio contact: artillery of a bought KIND onto TILE
[via] adjust ACTOR LETTER [order T ...]  a Sight for call LETTER: its marker climbs a row (order: who draws first On Target)
barrage KIND TURN TILE [smoke]   plan heavy artillery or rockets in secret for TURN on landmark TILE
[via] popsmoke ACTOR             a vehicle pops smoke (SHOOT): 2x smoke in its tile, then take cover
[via] handoff S ITEM T           (MOVE) S hands equipment ITEM to T beside him
[via] recover S ITEM|PLATE       (MOVE) search for abandoned ITEM, or take over abandoned vehicle PLATE
[via] climb S PLATE [turret]     (MOVE) S walks to enemy vehicle PLATE and climbs onto its deck (or turret)
[via] laymines ACTOR TILE T+T    (MOVE) a vehicle lays a minefield of its load (tokens T+T) in a square beside it
[via] clearmines S TILE          (MOVE) S, with a mine detector, lifts the minefield in his tile or one beside it"""
BATTLEFIELD_VERBS = ("assail", "call", "adjust", "barrage", "popsmoke", "handoff", "recover", "climb", "laymines",
                     "clearmines")
_BATTLEFIELD_VERB_SET = frozenset(BATTLEFIELD_VERBS)
BATTLEFIELD_ACTION_VERBS = ("adjust", "popsmoke", "handoff", "recover", "climb", "laymines", "clearmines")
# the verbs a tag, team or note may go before: the actions
_VIA_VERBS = frozenset(("move", "charge", "face", "sight", "draw", "cover", "rally", "hold", "shoot", "toss", "use",
                        *_VEHICLE_USAGE, *BATTLEFIELD_ACTION_VERBS))


# each battlefield verb's usage, as BATTLEFIELD_GRAMMAR writes it
_BATTLEFIELD_USAGE = {line.split()[1] if line.startswith("[via]") else line.split()[0]: line.split("  ")[0].strip()
                      for line in BATTLEFIELD_GRAMMAR.splitlines()}


def _battlefield_command(verb: str, args: list[str], seat: int, via, soldier) -> Cmd:
    usage = _BATTLEFIELD_USAGE[verb]
    if via and verb not in BATTLEFIELD_ACTION_VERBS:
        raise RuleError(f"{verb} is a free command: no tag, team or note before it.")

    def need(n: int) -> None:
        if len(args) < n:
            raise RuleError(f"usage: {usage}")

    if verb == "assail":
        need(3)
        part = args[2].lower()
        if part not in ("hull", "turret", "cabin"):
            raise UsageError(f"a compartment is hull, turret or cabin, not {shown(args[2])}.")
        extra = {a.lower() for a in args[3:]}
        if extra - {"grenade"}:
            raise RuleError(f"usage: {usage}")
        plate = number(args[1], "the vehicle's plate", "a dog tag number")
        return _built(AssailCmd, seat=seat, serial=soldier(args[0]), plate=plate, part=part, grenade="grenade" in extra)
    if verb == "call":
        need(3)
        rest = [a.lower() for a in args[3:]]
        relay = None
        if "relay" in rest:
            at = rest.index("relay")
            if at + 1 >= len(rest):
                raise RuleError(f"usage: {usage}: relay names the set it goes through (a dog tag or a plate)")
            relay = soldier(args[3 + at + 1], "the relay")
            del rest[at:at + 2]
        if set(rest) - {"fake", "smoke"}:
            raise RuleError(f"usage: {usage}")
        return _built(CallCmd, seat=seat, serial=soldier(args[0], "who calls"), kind=args[1].lower(), tile=args[2].upper(),
                       fake="fake" in rest, smoke="smoke" in rest, relay=relay)
    if verb == "adjust":
        need(2)
        order = []
        if len(args) > 2:
            if args[2].lower() != "order" or len(args) < 4:
                raise RuleError(f"usage: {usage}")
            order = [soldier(w, "a man in the order") for a in args[3:] for w in a.split(",") if w]
        return _built(AdjustCmd, seat=seat, serial=soldier(args[0], "who sights"), letter=args[1].upper(), via=via,
                         order=order)
    if verb == "barrage":
        need(3)
        turn = number(args[1], "a barrage's turn")
        extra = {a.lower() for a in args[3:]}
        if extra - {"smoke"}:
            raise RuleError(f"usage: {usage}")
        return _built(BarrageCmd, seat=seat, kind=args[0].lower(), turn=turn, tile=args[2].upper(), smoke="smoke" in extra)
    if verb == "popsmoke":
        need(1)
        return _built(PopSmokeCmd, seat=seat, serial=soldier(args[0], "who pops smoke"), via=via)
    if verb == "handoff":
        need(3)
        return _built(HandOffCmd, seat=seat, serial=soldier(args[0]), item=args[1].lower(), to=soldier(args[2], "who takes it"),
                          via=via)
    if verb == "climb":
        need(2)
        extra = [a.lower() for a in args[2:]]
        if extra not in ([], ["turret"], ["hull"]):
            raise RuleError(f"usage: {usage}")
        plate = number(args[1], "the vehicle's plate", "a dog tag number")
        return _built(ClimbCmd, seat=seat, serial=soldier(args[0]), plate=plate, part=extra[0] if extra else "hull", via=via)
    if verb == "laymines":
        need(3)
        tokens = [t.strip().lower() for t in args[2].split("+")]
        if len(args) > 3 or len(tokens) != 2 or any(t not in MINE_TOKENS for t in tokens):
            raise UsageError(f"usage: {usage}: the load's two tokens, each {', '.join(MINE_TOKENS)} "
                             f"(e.g. at+at), not {shown(' '.join(args[2:]))}.")
        return _built(LayMinesCmd, seat=seat, serial=soldier(args[0], "who lays the mines"), tile=args[1].upper(),
                           tokens=tokens, via=via)
    if verb == "clearmines":
        need(2)
        if len(args) > 2:
            raise RuleError(f"usage: {usage}")
        return _built(ClearMinesCmd, seat=seat, serial=soldier(args[0], "who clears the mines"), tile=args[1].upper(), via=via)
    need(2)  # recover
    if NUMBER.fullmatch(args[1]) and int(args[1]) >= 500:  # license plates are numbered from 500
        return _built(RecoverCmd, seat=seat, serial=soldier(args[0]), plate=int(args[1]), via=via)
    return _built(RecoverCmd, seat=seat, serial=soldier(args[0]), item=args[1].lower(), via=via)
