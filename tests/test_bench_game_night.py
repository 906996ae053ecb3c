"""``make bench``'s game night (bench/game_night.py) plays the battle page as a browser does: it
polls with the page script's own delays and sends the page's own recording forms, so the figures
follow the page when the page changes."""
import random
import re
from pathlib import Path

import pytest

from battles.services import battle_replay
from bench import game_night
from tests.battles.test_recording import client_for, table_battle  # noqa: F401 (a fixture)

PAGE = Path(__file__).resolve().parents[1] / "battles" / "static" / "battles" / "table.js"  # the page's script


def test_the_bench_polls_with_the_delays_of_the_pages_script():
    script = PAGE.read_text()
    delay = re.search(r"function delay\(\) \{(.*?)\n  \}", script, re.S).group(1)
    returns = [int(n) for n in re.findall(r"return (\d+);", delay)]
    assert returns == [15000, int(game_night.CONCLUDING_S * 1000), int(game_night.CONCLUDING_LATER_S * 1000), 0,
                       int(game_night.QUICK_S * 1000), int(game_night.POLL_S * 1000)], (
        "the page's polling changed: make bench/game_night.py's Page.delay() do as its script does")
    # where the server waits (data-wait), at once again after an answer that changed or that waited
    assert re.search(r"if \(waited\) return 0;", delay) and re.search(
        r"waited = waits && \(d\.changed \|\| Date\.now\(\) - sent > 1000\)", script), (
        "make Page.poll()'s ``waited`` follow the script")
    # after its own entry the script waits 3 s for the outcome, then asks for the regions as they are
    assert re.search(r"Date\.now\(\) - waitingSince > 3000", script), "make Page.poll()'s 3.0 s follow the script"
    # an ended battle whose results are not recorded yet: asked again, the regions whole, until they come (at
    # first quickly, then slowly)
    assert re.search(r"\|\| concluding;\n\s*if \(concluding\) concludingAsks \+= 1;", script) and re.search(
        rf"if \(concluding && concludingAsks < {game_night.CONCLUDING_ASKS}\) return \d+;\n\s*if \(concluding\) return",
        delay), "make Page.poll()'s ``concluding`` follow the script"


@pytest.mark.django_db(transaction=True)
def test_the_bench_finds_the_pages_forms_and_the_turn_it_plays_is_stored(table_battle):  # noqa: F811
    battle, users = table_battle
    client = client_for(users["defender"])
    rng = random.Random(1)
    for form_id in game_night.PLAN:
        html = client.get(f"/battles/{battle.id}/").content.decode()
        head, state = map(int, game_night._DATA.search(html).groups()[:2])
        forms = game_night.record_forms(html)
        assert form_id in forms, f"the side to move's page offers no {form_id!r} form any more"
        assert forms[form_id].fields["expected_seq"] == str(head)
        action, data = game_night.filled(forms[form_id], rng)
        r = client.post(action, data, HTTP_X_REQUESTED_WITH="fetch", HTTP_ACCEPT="application/json")
        # the shot's die is the service's: the rules may refuse the man the player picked, and the page says why
        assert r.status_code == 200 or (form_id == "quick_fire" and r.status_code == 422), (
            form_id, re.findall(r'class="(?:errorlist|refusal)"[^>]*>(.*?)</', r.content.decode(), re.S))
        if r.status_code == 200:  # as the script hears it: the entry's seq
            assert r.json() == {"recorded": head + 1, "head_seq": head + 1}
        battle_replay(battle_id=battle.id)  # as the worker would
    battle.refresh_from_db()
    assert battle.head_seq == head + 1 and state == head
    assert battle.events.order_by("-seq").first().type == "turn_ended"


def test_the_servers_cpu_by_route_is_the_difference_of_two_readings_the_costliest_first(tmp_path):
    """bench/game_night.py reads the server's own CPU counters (shtab_http_request_cpu_seconds, the
    multiprocess files of its processes) before and after a probe."""
    import subprocess
    import sys

    script = (
        "from config import metrics\n"
        "metrics.REQUEST_CPU.labels('battle-live', 'GET').inc({cpu})\n"
        "metrics.REQUEST_SECONDS.labels('battle-live', 'GET').observe(0.01)\n"
        "metrics.REQUEST_CPU.labels('battle-detail', 'GET').inc({page})\n"
        "metrics.REQUEST_SECONDS.labels('battle-detail', 'GET').observe(0.02)\n")
    root = Path(__file__).resolve().parent.parent

    def a_process(cpu: float, page: float) -> None:  # as each of the server's processes counts its requests
        subprocess.run([sys.executable, "-c", script.format(cpu=cpu, page=page)], cwd=root, check=True,
                       env={"PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"})

    a_process(0.004, 0.010)
    before = game_night.route_cpu(str(tmp_path))
    assert before == {"battle-live": (1.0, pytest.approx(0.004)), "battle-detail": (1.0, pytest.approx(0.010))}
    a_process(0.006, 0.030)  # another process: one more live answer (6 ms) and one more page (30 ms)
    a_process(0.002, 0.030)  # and another: 2 ms, 30 ms
    rows = game_night.by_route(before, game_night.route_cpu(str(tmp_path)), wall=2.0)
    assert list(rows) == ["battle-detail", "battle-live"]  # 60 ms before 8 ms
    assert rows["battle-live"] == {"per_s": 1.0, "cpu_ms_each": pytest.approx(4.0), "cpu_share": pytest.approx(0.004)}
    assert rows["battle-detail"] == {"per_s": 1.0, "cpu_ms_each": pytest.approx(30.0),
                                     "cpu_share": pytest.approx(0.03)}
    assert game_night.by_route(before, before, wall=2.0) == {}  # nothing answered in between: no row
