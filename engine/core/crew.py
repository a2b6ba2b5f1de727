"""Crews (Hell on Wheels, Crew; Untrained Soldiers as Crew; Cross-Trained Crew; License Plate).

A crewman serves the functions of the position he occupies. Trained: his training names this
vehicle and this position's role (a Commander serves in any). Cross-trained: trained on this
vehicle in another role — he serves, but never through the vehicle's license plate. Untrained:
any other soldier — only actions that name a Soldier, never crew actions or plate actions."""
from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.vehicle_content import ROLE_COMMANDER, Location, Role


def aboard(st, serial: int):
    """His vehicle's state, if he is aboard one."""
    s = st.soldiers.get(serial)
    if s is None or s.status != "aboard" or s.vehicle is None:
        return None
    return st.vehicles.get(s.vehicle)


def position_of(st, serial: int) -> Location | None:
    """The crew position he occupies (not a machinery location, cabin or deck)."""
    v = aboard(st, serial)
    if v is None:
        return None
    post = st.soldiers[serial].post
    if post not in v.crew or v.crew[post] != serial:
        return None
    return st.vehicle_def(v.plate).location(post)


def training(st, serial: int):
    return st.setup.soldiers[serial].crew


def is_crew_of(st, serial: int, plate: int) -> bool:
    """Trained on this vehicle (in any role): crew entries on cards are his to take."""
    t = training(st, serial)
    return t is not None and t.vehicle == st.vehicles[plate].vehicle


def trained_at(st, serial: int, plate: int, loc: Location) -> bool:
    """Trained for this position: his role on this vehicle, or a Commander anywhere."""
    t = training(st, serial)
    return t is not None and t.vehicle == st.vehicles[plate].vehicle and t.role in (loc.role, ROLE_COMMANDER)


def man_at(st, plate: int, role: Role) -> int | None:
    """Who occupies the first position of this role (fire-free)."""
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    for loc in vdef.crew_positions:
        if loc.role == role and loc.id in v.crew and "fire" not in v.damage.get(loc.id, []):
            return v.crew[loc.id]
    return None


def server_of(st, plate: int, weapon: str) -> int | None:
    """Who occupies the position serving this weapon."""
    v = st.vehicles[plate]
    for loc in st.vehicle_def(plate).crew_positions:
        if weapon in loc.weapons and loc.id in v.crew and "fire" not in v.damage.get(loc.id, []):
            return v.crew[loc.id]
    return None


# Why a man may not carry out a vehicle action (actor words it): the rule itself lives in _serve,
# asked by actor for a command and by crewman for a yes/no (the option lists ask it many times a
# command, and most answers are "no": no formatted error built and caught for them)
_NOBODY, _UNTRAINED, _NOT_AT_POST, _NOT_SERVING, _WRONG_ROLE = range(1, 6)


def _serve(st, plate: int, who: int, role: Role | None, weapon: str | None) -> tuple[int | None, int, Location | None]:
    """(the crewman, 0 or why not, his position) for actor and crewman."""
    if who == plate:
        man = server_of(st, plate, weapon) if weapon else man_at(st, plate, role)
        if man is None:
            return None, _NOBODY, None
        loc = position_of(st, man)
        return man, (0 if trained_at(st, man, plate, loc) else _UNTRAINED), loc
    loc = position_of(st, who)
    if loc is None or st.soldiers[who].vehicle != plate:
        return who, _NOT_AT_POST, loc
    if weapon and weapon not in loc.weapons:
        return who, _NOT_SERVING, loc
    if role and loc.role != role:
        return who, _WRONG_ROLE, loc
    return who, 0, loc


def crewman(st, plate: int, who: int, *, role: Role | None = None, weapon: str | None = None) -> int | None:
    """The crewman actor would name, or None where actor refuses (the same rule, without the words)."""
    man, why, _ = _serve(st, plate, who, role, weapon)
    return None if why else man


def actor(st, plate: int, who: int, *, role: Role | None = None, weapon: str | None = None,
          what: str) -> int:
    """The crewman who carries out a vehicle action. `who` is the command's actor: the plate
    (then the man at the needed position acts, and he must be trained there: the license plate
    is never used for a cross-trained role) or a crewman (then he must sit at that position)."""
    man, why, loc = _serve(st, plate, who, role, weapon)
    if not why:
        return man
    vdef = st.vehicle_def(plate)
    if why == _NOBODY:
        raise RuleError(f"nobody is at the {vdef.name}'s {weapon or role.value} position to {what}.")
    if why == _UNTRAINED:
        raise RuleError(f"{st.name(man)} is not trained as its {loc.role.value}: the license plate "
                        f"cannot make him {what}.")
    if why == _NOT_AT_POST:
        raise RuleError(f"{st.name(who)} is not at a crew position of the {vdef.name}.")
    if why == _NOT_SERVING:
        raise RuleError(f"{st.name(who)}'s position ({loc.name}) does not serve the {weapon}.")
    raise RuleError(f"{st.name(who)} is at the {loc.name}; {what} needs the {role.value}'s position.")


def has_post(vdef, role: Role) -> bool:
    """Whether the vehicle's panel has a crew position of this role."""
    return any(loc.role == role for loc in vdef.crew_positions)


def post_for(vdef, role: Role, weapon: str) -> tuple[Role | None, str | None]:
    """The position a vehicle action needs, as actor's and crewman's `role` and `weapon`: the
    role's own position where the panel has one, else whoever serves the weapon (a gun without
    a Gunner or Loader is turned, loaded and aimed by its crew at the gun)."""
    return (role, None) if has_post(vdef, role) else (None, weapon)


def is_open(st, plate: int, post: str | None) -> bool:
    """Is a man at this place unbuttoned: his hatch open, or his compartment roofless (open_top)?"""
    v = st.vehicles[plate]
    vdef = st.vehicle_def(plate)
    if post is None:
        return False
    if post in v.unbuttoned:
        return True
    if post == "cabin":
        return "cabin" in vdef.open_top
    try:
        loc = vdef.location(post)
    except KeyError:
        return False
    return loc.kind == "crew" and loc.compartment in vdef.open_top


def compartment_crew(st, plate: int, compartment) -> list[int]:
    """Everyone inside a compartment: crew at its positions and machinery, passengers in a cabin."""
    vdef = st.vehicle_def(plate)
    ids = {loc.id for loc in vdef.locations if loc.compartment == compartment}
    return sorted(s.serial for s in st.soldiers.values()
                  if s.status == "aboard" and s.vehicle == plate
                  and (s.post in ids or (s.post == "cabin" and compartment == "cabin")))


def everyone_aboard(st, plate: int) -> list[int]:
    return sorted(s.serial for s in st.soldiers.values() if s.status == "aboard" and s.vehicle == plate)


def plate_of(st, serial: int) -> int:
    """The vehicle a command is about: the plate itself, or the vehicle the man belongs to."""
    if serial in st.vehicles:
        return serial
    s = st.soldiers.get(serial)
    if s is None or s.vehicle is None or s.vehicle not in st.vehicles:
        raise RuleError(f"{st.name(serial) if s else serial} is not with a vehicle.")
    return s.vehicle
