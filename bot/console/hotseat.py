"""The hot-seat loop: one keyboard, several players, nothing of one player's on screen when
another sits down (docs/console.md).

Whenever the player the game waits for changes, the screen is cleared (CLEAR, scrollback too)
and a page says whom to pass to; after his Enter it is cleared again and he sees the public
lines he missed, the board, and then his own news, hand and prompt. The game's end clears the
screen before the end screen, too. A number typed picks from the latest numbered list shown to
that player; a word the console does not know gets a "did you mean".
"""
from __future__ import annotations

import sys
from pathlib import Path

from bot.app import Caller, prompts
from bot.app.errors import Refused
from bot.console import briefing, ending, text
from bot.console import help as console_help
from bot.console.table import LIST_NOTE, Table
from bot.store import StoreError, StoreUnavailable
from bot.store.database_file import backup
from engine import RuleError, view
from engine.core.commands import NUMBER
from engine.script import parse_line

CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # home, clear the screen, clear the scrollback
OPTIONS = 60  # legal commands listed (and numbered) by `options`
QUIT = ("quit", "exit")


def read(prompt: str) -> str | None:
    """A line typed at the terminal; None when input has closed."""
    try:
        return input(prompt)
    except EOFError:
        return None


class HotSeat:
    """The terminal loop: prompt the awaited player, read a command, carry it out."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.briefed: set[int] = set()  # players who have had their private briefing

    async def loop(self) -> int:
        for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "backslashreplace")):
            if hasattr(stream, "reconfigure"):  # bytes that are not UTF-8 reach the command edge as lone
                stream.reconfigure(errors=errors)  # surrogates, refused there; printing never fails on them
        v = view(await self.t.state())
        print(briefing.public_briefing(v, self.t.service.catalog.scenario(v.scenario)))
        print()
        print(text.full_text(v))
        while True:
            try:
                done = await self._turn()
            except StoreUnavailable as exc:  # the database is busy or cannot save: nothing was changed
                print(exc)
                if read("Press Enter to try again (or type quit) > ") not in (None, *QUIT):
                    continue
                return 0
            if done is not None:
                return done

    async def _turn(self) -> int | None:
        """Prompt the awaited player and carry out one line; an exit code when the game stops."""
        waits = await self.t.waiting()
        if not waits:
            return await self._end()
        w = waits[0]
        caller = self.t.by_user[w.user_id]
        if caller.user_id != self.t.seated and not await self._pass_to(caller, w.seat):
            return 0
        self.t.flush(caller.user_id)
        line = read(f"{caller.name}, {text.plain(w.detail)} > ")
        if line is None:
            print("\n(input closed: the game stops here)")
            return 0
        line = line.strip()
        if not line:
            return None
        if line.lower() in QUIT:
            return await self._quit()
        try:
            if await self._meta(line, caller, w.seat):
                return None
            if NUMBER.fullmatch(line):
                picked = self._pick(caller.user_id, int(line))
                if picked is None:
                    return None
                line = picked
            elif not self._known(line):
                return None
            r = await self.t.service.command(caller, self.t.where, line)
        except (Refused, RuleError) as exc:
            print(f"Not allowed: {exc}")
            return None
        self.t.show(r, private_to=caller.user_id)  # a new list shown now replaces the one answered
        return None

    def _pick(self, user: int, n: int) -> str | None:
        """The command numbered n in the latest list shown to this player (None: said why not)."""
        picks = self.t.choices.get(user)
        if not picks:
            print("No numbered list has been shown to you yet: `options` lists what you may do, numbered.")
            return None
        if not 1 <= n <= len(picks):
            print(f"Pick a number from 1 to {len(picks)} (the latest list shown above), or type a command.")
            return None
        return picks[n - 1]

    @staticmethod
    def _known(line: str) -> bool:
        """Whether a line starts with a word the console knows; if not, say so and suggest."""
        first = line.split()
        word = first[1] if len(first) > 1 and first[0].lower() in console_help.VIA else first[0]
        if word.lower() in console_help.words():
            return True
        print(console_help.unknown(word))
        return False

    async def _pass_to(self, caller: Caller, seat: int) -> bool:
        """Clear the screen, ask for the keyboard to be passed, clear it again, and show the
        player what he missed and what is his; False if input closed."""
        if self.t.seated is not None:
            print(CLEAR, end="")
            print("\n" * 8)
        try:
            input(f"--- Pass to {caller.name} and press Enter (nobody else should look) ---")
        except EOFError:
            print("\n(input closed: the game stops here)")
            return False
        print(CLEAR, end="")  # the pass page (and the briefing above the first one) goes
        self.t.seated = caller.user_id
        v = view(await self.t.state(), seat)
        print(f"=== {caller.name} ({v.seats[seat].side}) at the keyboard ===")
        missed, self.t.unseen[caller.user_id] = self.t.unseen[caller.user_id], []
        if missed:
            print("Since you last looked:")
            print("\n".join("  " + line.replace("\n", "\n  ") for line in missed))
        print(text.header(v))
        print(text.map_text(v))
        print("(board: with the soldiers and the legend; help: the commands)")
        if caller.user_id not in self.briefed and v.mine is not None and v.mine.order:
            self.briefed.add(caller.user_id)
            print(briefing.orders_explained(v, v.mine.order))
        if not self.t.flush(caller.user_id):  # his news already shows his hand, else show it
            self.t.show(await self.t.service.hand(caller, self.t.where))
        return True

    async def _meta(self, line: str, caller: Caller, seat: int) -> bool:
        """The console's own lines (help, board, hand, options …); False for a game command."""
        words = line.split()
        word = console_help.ALIASES.get(words[0].lower(), words[0].lower())
        svc, where = self.t.service, self.t.where
        if word == "help":
            print(console_help.help_for(words[1:]) if len(words) > 1 else console_help.quick_reference())
        elif word in ("board", "soldiers", "vehicles", "legend"):
            v = view(await self.t.state(), seat)
            shown = {"board": text.full_text, "soldiers": lambda x: "\n".join(text.soldier_lines(x)),
                     "vehicles": lambda x: "\n".join(text.vehicle_lines(x)) or "No vehicles or guns.",
                     "legend": text.legend}[word]
            print(shown(v))
        elif word == "briefing":
            v = view(await self.t.state(), seat)
            print(briefing.public_briefing(v, svc.catalog.scenario(v.scenario)))
            if v.mine is not None and v.mine.order:
                print(briefing.orders_explained(v, v.mine.order))
        elif word == "card":
            seen = text.visible_cards(view(await self.t.state(), seat))
            wanted = words[1].upper() if len(words) > 1 else ""
            print(text.card_text(seen[wanted]) if wanted in seen else
                  f"{'Card ' + repr(words[1]) + ' is not' if wanted else 'Name a card:'} one you can see: your own "
                  "cards and those revealed on the table (" + (", ".join(sorted(seen)) or "none yet") + ").")
        elif word == "hand":
            self.t.show(await svc.hand(caller, where))
        elif word == "options":
            opts = await svc.options(caller, where)
            st = await self.t.state()
            picks = opts[:OPTIONS]
            self.t.choices[caller.user_id] = picks
            print("You may (type the number or the command):\n"
                  + "\n".join(f"  {i + 1}) {self._words(st, seat, o)}" for i, o in enumerate(picks))
                  + (f"\n  ... and {len(opts) - OPTIONS} more" if len(opts) > OPTIONS else "")
                  + "\n" + LIST_NOTE)
        elif word == "log":
            self.t.show(await svc.history(caller, where))
        elif word == "undo":
            self.t.show(await svc.undo(caller, where), private_to=caller.user_id)
        else:
            return False
        return True

    @staticmethod
    def _words(st, seat: int, line: str) -> str:
        """A legal command as the player reads it, then its script line: "M4A1 Sherman 601:
        drive to 14A along the road [team]  (team vmove 601 14A road)"."""
        try:
            label = prompts.label(st, parse_line(st, line, seat))
        except (RuleError, KeyError):
            return line
        return line if label == line else f"{label}  ({line})"

    # ------------------------------------------------------------------ endings

    async def _end(self) -> int:
        """The game is over: a clear screen, the end screen, the final board (and picture)."""
        st = await self.t.state()
        if st is None:
            return 0
        if self.t.seated is not None:
            print(CLEAR, end="")
        self.t.seated = None
        v = view(st)
        print(ending.end_screen(v))
        print()
        print(text.map_text(v))
        if self.t.temporary:
            saved = self._save("The game is over. To keep it and its final board picture, type a file name "
                               "(e.g. game.db); Enter lets it go > ")
            if saved is not None:
                print(f"Final board: {ending.final_picture(v, saved, self.t.gid)}")
        else:
            beside = Path(self.t.db) if self.t.db is not None and "://" not in str(self.t.db) else None
            print(f"Final board: {ending.final_picture(v, beside, self.t.gid)}")
        return 0

    async def _quit(self) -> int:
        """Stop: a temporary game may be saved first; a kept one says how to go on."""
        if self.t.temporary:
            if self._save("This game lives in a temporary file and is lost when you quit. To keep it, type a "
                          "file name (e.g. game.db); Enter lets it go > ") is None:
                print("Not saved.")
        elif self.t.db is not None:
            print(f"The game stays in {self.t.db}: `fieldpost play --db {self.t.db}` goes on from here.")
        return 0

    def _save(self, question: str) -> Path | None:
        """Ask for a file name and copy the temporary database there; the path, or None."""
        while True:
            answer = read(question)
            if answer is None or not answer.strip():
                return None
            target = Path(answer.strip()).expanduser()
            if target.suffix == "":
                target = target.with_suffix(".db")
            try:
                backup(Path(self.t.db), target)
            except StoreError as exc:
                print(f"Not saved: {exc}")
                continue
            print(f"Saved to {target}: `fieldpost play --db {target}` goes on from where it stopped.")
            return target
