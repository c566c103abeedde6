"""`run --config` drives boards named in a TOML file: here the standalone simulator's ptys."""

import json
import os
import subprocess
import sys
import time

from firmware.records.ledger import Ledger
from tests.processes import interrupt


def test_run_with_a_configuration_drives_the_named_ports(tmp_path):
    registry_json = tmp_path / "registry.json"
    sim = subprocess.Popen([sys.executable, "-m", "firmware", "sim", "--speed", "0", "--seed", "4", "--json",
                            "--registry", str(registry_json)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run = None
    try:
        where = json.loads(sim.stdout.readline())
        state = tmp_path / "state"
        config = tmp_path / "table.toml"
        config.write_text(f'[devices]\nmotor = "{where["motor"]}"\nrfid = "{where["rfid"]}"\ndisplay = "{where["display"]}"\n'
                          f'[table]\nruleset = "changchun"\n[storage]\nstate_dir = "{state}"\nevents_dir = "{state / "events"}"\n',
                          encoding="utf-8")
        unenrolled = subprocess.run([sys.executable, "-m", "firmware", "run", "--config", str(config), "--hands", "1"],
                                    capture_output=True, text=True, timeout=60)
        assert unenrolled.returncode == 2 and "no tiles are enrolled" in unenrolled.stderr
        imported = subprocess.run([sys.executable, "-m", "firmware", "enroll", "--config", str(config),
                                   "--import", str(registry_json)], capture_output=True, text=True, timeout=60)
        assert imported.returncode == 0, imported.stderr
        run = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--config", str(config), "--hands", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = run.stdout.readline()
        assert first.startswith("running 长春麻将 (changchun) on the boards of")
        events_dir = state / "events"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:             # nobody plays: the first set is built and checked
            files = sorted(events_dir.glob("*.jsonl"), key=lambda f: f.stat().st_mtime) if events_dir.exists() else []
            lines = files[-1].read_text(encoding="utf-8").splitlines() if files else []
            if any('"set_check"' in line for line in lines):
                break
            time.sleep(0.2)
        assert any(json.loads(line)["event"] == "set_check" and json.loads(line)["ok"] for line in lines)
        assert oct(os.stat(files[-1]).st_mode & 0o777) == "0o600"       # the recorder is the owner's only
        Ledger(state / "table.db").close()
    finally:
        interrupt(run, sim)
