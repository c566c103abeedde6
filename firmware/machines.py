"""The table's state machines (transitions), each built once per table.

Three machines, each a table of (trigger, source, destination):
- the **table** lifecycle: connect and handshake → self-test → idle → the first build → hand over
  (push the old set in, raise the new walls) → dice → deal → reveal → play ⇄ win check →
  settlement → the next hand over; after a restart, straight from idle to the journaled hand's phase;
  a set the check rejected is set aside (raised for a person to mend, who acknowledges) and the
  table builds again as at the first build;
- the **set builder** under the table: shuffle → build → check → ready or rejected (or ready at once
  when a restarted controller finds the checked set in its journal);
- the **fault latch**: clear → latched → (a person acknowledges) → clear.

No auto transitions, no queued triggers (DESIGN.md §7): every trigger is named here, and an
invalid trigger raises at once.  `dot_text()` renders all three as Graphviz DOT.
"""

from __future__ import annotations

from transitions import Machine

TABLE_STATES = ("connecting", "self_test", "idle", "first_build", "push_in", "raising", "dice",
                "dealing", "revealing", "playing", "win_check", "settling", "setting_aside", "stopped")
TABLE_TRANSITIONS = (
    ("connected", "connecting", "self_test"),
    ("tested", "self_test", "idle"),
    ("start", "idle", "first_build"),
    ("set_built", "first_build", "push_in"),
    ("pushed_in", "push_in", "raising"),
    ("walls_up", "raising", "dice"),
    ("dice_done", "dice", "dealing"),
    ("dealt", "dealing", "revealing"),
    ("revealed", "revealing", "playing"),
    ("hu", "playing", "win_check"),
    ("judged", "win_check", "playing"),
    ("hand_over", "playing", "settling"),
    ("hand_over", "win_check", "settling"),
    ("next_hand", "settling", "push_in"),
    ("finish", "settling", "stopped"),
    # a restarted controller picks up the hand in play where its journal left it
    ("resume_dealing", "idle", "dealing"),
    ("resume_revealing", "idle", "revealing"),
    ("resume_playing", "idle", "playing"),
    ("resume_settling", "idle", "settling"),
    ("restore_walls", "idle", "dice"),       # a checked set stands on the table, no hand begun on it
    ("restore_set", "idle", "push_in"),      # a checked set waits under the table
    # the set built for the next hand failed its check: push the table top in, raise the rejected
    # walls for a person to mend, wait for 确认, then build again (firmware.between_hands `_set_aside`)
    ("set_rejected", ["first_build", "settling", "idle"], "setting_aside"),
    ("rebuild", "setting_aside", "first_build"),
    # the walls that rose are not the checked set built for them (it was lost from under the table while
    # no controller watched: tiles taken out through the hatch, a mechanism reset): built anew
    ("walls_missing", "raising", "first_build"),
    # a board restarted and the walls now contradict the hand: it is voided where it stood (in the
    # settlement round too, before anything is committed)
    ("void", ["dice", "dealing", "revealing", "playing", "win_check", "settling"], "settling"),
)

BUILDER_STATES = ("empty", "shuffling", "building", "checking", "ready", "rejected", "raised")
BUILDER_TRANSITIONS = (
    ("shuffle", ["empty", "raised", "rejected"], "shuffling"),
    ("build", "shuffling", "building"),
    ("built", "building", "checking"),
    ("accept", "checking", "ready"),
    ("reject", "checking", "rejected"),
    ("raise_walls", "ready", "raised"),
    ("restore", "empty", "ready"),            # a restarted controller: the journal kept the checked set
    ("resume_build", "empty", "building"),    # … or the build it had begun: go on with it, re-read every slot
)

FAULT_STATES = ("clear", "latched")
FAULT_TRANSITIONS = (
    ("latch", ["clear", "latched"], "latched"),
    ("acknowledge", "latched", "clear"),
)

MACHINES = {
    "table": (TABLE_STATES, TABLE_TRANSITIONS, "connecting"),
    "builder": (BUILDER_STATES, BUILDER_TRANSITIONS, "empty"),
    "fault": (FAULT_STATES, FAULT_TRANSITIONS, "clear"),
}


class StateModel:
    """A model object for one machine: `state` and a method per trigger."""

    state: str


def build_machine(name: str) -> StateModel:
    """One machine of `MACHINES`.  Its triggers are plain calls: no machine has callbacks, so an
    awaitable trigger (transitions' AsyncMachine) would only cost (≈29 µs a trigger against ≈12 here,
    most of the table's lifecycle steps a hand)."""
    states, transitions, initial = MACHINES[name]
    model = StateModel()
    Machine(model=model, states=list(states), initial=initial, auto_transitions=False,
            transitions=[{"trigger": t, "source": s, "dest": d} for t, s, d in transitions],
            ignore_invalid_triggers=False)
    return model


def dot_text() -> str:
    """All three machines as one DOT graph (one cluster each)."""
    lines = ["digraph mahjong_table {", "  rankdir=LR;", '  node [shape=box, style=rounded, fontname="Helvetica"];']
    for name, (states, transitions, initial) in MACHINES.items():
        lines.append(f"  subgraph cluster_{name} {{")
        lines.append(f'    label="{name}";')
        lines.append(f'    "{name}_start" [shape=point];')
        lines.append(f'    "{name}_start" -> "{name}:{initial}";')
        for state in states:
            lines.append(f'    "{name}:{state}" [label="{state}"];')
        for trigger, sources, dest in transitions:
            for source in ([sources] if isinstance(sources, str) else sources):
                lines.append(f'    "{name}:{source}" -> "{name}:{dest}" [label="{trigger}"];')
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"
