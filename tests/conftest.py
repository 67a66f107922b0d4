"""Shared fixtures: the knowledge base and paths to the copied validation data."""

from __future__ import annotations

import csv
import functools
import gc
import json
import os
import pickle
import sys
import tempfile
from pathlib import Path

import pytest
import yaml


def _bytecode_for_this_run() -> None:
    """Where ``PYTHONDONTWRITEBYTECODE`` is set (it is on the machines this suite is timed on), each
    pytest-xdist worker rewrote every test module's asserts again at every run (about 4 s of CPU
    per worker) and every ``python -m gpuwise`` the tests start compiled what it imports from
    source. The test processes and the processes they start write bytecode as usual instead,
    beside the sources (``__pycache__``, ignored by git), as an installed gpuwise has it and as
    tests/test_memo.py's and benchmarks/bench.py's processes already did. (A ``PYTHONPYCACHEPREFIX``
    of the run's own would not do: with it Python ignores the installed packages' bytecode and
    compiles them all again.)"""
    if sys.dont_write_bytecode:
        sys.dont_write_bytecode = False
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # the workers and the processes the tests start


_bytecode_for_this_run()


def _temporary_files_in_memory(least_free: int = 4 * 2**30) -> None:
    """Every report, answers file and cache entry gpuwise writes is flushed to the disk
    (``os.fsync`` in ``render.output.atomic_write_text``): about 10 ms each on this machine's disk
    under load, 308 of them in tests/test_questionnaire.py alone (3.2 s of its 7 s). Where the
    machine has a memory file system (``/dev/shm``, with room to spare) the tests' temporary
    directories are made there: the same code runs, the same system calls, but a flush costs
    nothing. ``PYTEST_DEBUG_TEMPROOT`` or ``--basetemp`` set by whoever runs the suite wins."""
    if "PYTEST_DEBUG_TEMPROOT" in os.environ or any(a.startswith("--basetemp") for a in sys.argv):
        return
    shm = "/dev/shm"
    try:
        st = os.statvfs(shm)
        roomy = st.f_bavail * st.f_frsize >= least_free
    except (OSError, AttributeError):
        return
    if roomy and os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = shm


_temporary_files_in_memory()


def pytest_configure(config):
    _rewrite_my_share_first(config)


def _rewrite_my_share_first(config) -> None:
    """From a fresh clone (no ``__pycache__``) every pytest-xdist worker rewrote the asserts of all
    the test modules as it collected them, the same work in each (about 4 CPU-s, before any test
    ran); each worker now first rewrites its share of them (worker i of n: every n-th module from
    the i-th), so that when it collects, the others' shares are already in the cache pytest keeps
    beside the sources. The rewritten code is pytest's own, written the way pytest writes it
    (atomically); where pytest's internals differ, nothing is done and collection rewrites as
    before. Without pytest-xdist, or with bytecode switched off, nothing is done either."""
    worker = getattr(config, "workerinput", None)
    if worker is None or sys.dont_write_bytecode or config.getoption("assertmode", "rewrite") != "rewrite":
        return
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        index, count = int(str(worker["workerid"]).removeprefix("gw")), int(worker["workercount"])
        for path in sorted(Path(__file__).parent.glob("test_*.py"))[index::count]:
            cache = rewrite.get_cache_dir(path)
            pyc = cache / (path.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(path, pyc, state.trace) is None and rewrite.try_makedirs(cache):
                source, code = rewrite._rewrite_test(path, config)
                rewrite._write_pyc(state, code, source, pyc)
    except Exception:  # only a head start: collection rewrites whatever is missing
        return

# The per-user cache (gpuwise/cache.py) is keyed by the files' bytes and gpuwise's source files;
# tests that patch loaders or schemas in memory must see a fresh load, so in the test processes it
# is off unless a test turns it on (GPUWISE_NO_CACHE=0: tests/test_cache.py). The gpuwise
# processes the tests start use it as a user's do -- loading and checking the knowledge is most of
# a short run -- in a directory of this run's own (_cache_for_started_processes below).
# GPUWISE_NO_CACHE=1 set by whoever runs the suite turns it off everywhere.
CACHE_OFF = os.environ.get("GPUWISE_NO_CACHE", "") not in ("", "0")
if not CACHE_OFF:
    os.environ.pop("GPUWISE_NO_CACHE", None)
    from gpuwise import cache as _cache

    _cache.enabled = lambda: os.environ.get("GPUWISE_NO_CACHE") == "0"  # in this process


@pytest.fixture(scope="session", autouse=True)
def _cache_for_started_processes(tmp_path_factory):
    """XDG_CACHE_HOME for the processes the tests start: one directory per run, shared by the
    pytest-xdist workers (the cache is safe under concurrent runs), never the user's own cache."""
    if CACHE_OFF:
        yield
        return
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "xdg-cache"
    shared.mkdir(exist_ok=True)
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(shared)
    yield
    if saved is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = saved

@pytest.fixture(scope="session", autouse=True)
def _default_key_bindings_built_once():
    """prompt_toolkit builds its default key bindings (emacs, vi, basic: about 600 of them) afresh
    for every Application, that is for every question ``gpuwise ask`` puts; that was most of the
    questionnaire tests' time. The bindings are the same every time and hold no state of their own
    (a binding reads the running application's), so the test processes build them once."""
    try:
        from prompt_toolkit.application import application
    except ImportError:  # pragma: no cover - prompt_toolkit is a dependency of gpuwise ask
        yield
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(application, "load_key_bindings", functools.cache(application.load_key_bindings))
        yield


DATA = Path(__file__).parent / "data"


def heldout_subset(tmp_path: Path, ids: tuple[str, ...]) -> tuple[Path, dict[str, dict]]:
    """A copy of tests/data/training_heldout.csv holding only the runs ``ids`` (for the benchmark scripts that
    read a runs file), and those rows by id."""
    with open(DATA / "training_heldout.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    path = tmp_path / "some.csv"
    with open(path, "w", newline="") as fh:
        out = csv.DictWriter(fh, fieldnames=list(rows[0]))
        out.writeheader()
        out.writerows(r for r in rows if r["id"] in ids)
    return path, {r["id"]: r for r in rows if r["id"] in ids}
ROOT = Path(__file__).parent.parent
# the bundled team example held to copies of 2 RTX 4090s, so that it buys and binds (plancopy57: the example itself
# serves on copies of 4 and buys nothing); the tests of a purchase, a tie and a binding constraint read it
TWO_A_COPY = ROOT / "tests" / "data" / "plans" / "team-4090-two-a-copy.yaml"
TIE = ROOT / "tests" / "data" / "plans" / "team-4090-two-a-copy-tie.yaml"  # the same at 17.5 cents: a tie


@pytest.fixture(scope="session")
def estimate_cold_and_warm(tmp_path_factory):
    """``python -m gpuwise estimate examples/lora-70b.yaml`` run twice as real processes on an empty
    cache directory: (first run, second run, the cache files the first one left). tests/test_code_cache
    and tests/test_regex_cache check their own cache files in it (the same two runs each started)."""
    import subprocess

    cache = tmp_path_factory.mktemp("cold-and-warm")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(cache), "GPUWISE_NO_CACHE": "0"}
    argv = [sys.executable, "-m", "gpuwise", "estimate", str(ROOT / "examples" / "lora-70b.yaml")]
    cold = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    left = {p.name: p.stat().st_size for p in (cache / "gpuwise").glob("*")} if (cache / "gpuwise").is_dir() else {}
    warm = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    return cold, warm, left


@pytest.fixture(scope="session")
def kb():
    from gpuwise import knowledge

    return knowledge.load()


@pytest.fixture(scope="session")
def accuracy():
    """benchmarks/accuracy.py: the one place that maps validation rows to estimator calls."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gpuwise_accuracy", ROOT / "benchmarks" / "accuracy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.published_run_cases = _runs_once(module.published_run_cases)
    return module


def _runs_once(published_run_cases):
    """``accuracy.published_run_cases`` computed once per test process for each knowledge base, runs
    file and conditions file: tests/test_compute.py, test_training_fabric.py, test_training_runs.py and
    test_training_heldout_runs.py each score the same published runs (about half a CPU second a set;
    RUN_MODULES keeps the four on one worker). The figures are (label, estimate, published) tuples of
    text and numbers, handed out in a fresh list; a call asking for the estimates themselves
    (``details``) is computed afresh."""
    kept: dict[tuple, tuple] = {}

    @functools.wraps(published_run_cases)
    def once(kb, *args, details=None, **kw):
        if details is not None:
            return published_run_cases(kb, *args, details=details, **kw)
        key = (id(kb), args, tuple(sorted(kw.items())))
        got = kept.get(key)
        if got is None or got[0] is not kb:
            got = kept[key] = (kb, published_run_cases(kb, *args, **kw))
        return list(got[1])

    return once


SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SAFE_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
"""PyYAML's safe loader and dumper in C (libyaml) where it is built in: the same data as
``yaml.safe_load``/``yaml.safe_dump`` (the same resolver and constructors), several times faster
than the pure-Python parser and emitter (a 3,000-workload plan: 0.5 -> 0.12 s to write)."""


def load_yaml(text: str):
    """``yaml.safe_load(text)`` with :data:`SAFE_LOADER`: for the tests' own reading of shipped
    files (rule files, examples, expected results); gpuwise reads its inputs its own way."""
    return yaml.load(text, Loader=SAFE_LOADER)


THOROUGH = os.environ.get("GPUWISE_THOROUGH", "") not in ("", "0")
"""``GPUWISE_THOROUGH=1``: the property tests (hypothesis) run the larger example counts of :func:`examples`."""


def examples(suite: int, thorough: int) -> int:
    """Hypothesis examples a property test runs: ``suite`` in the README's test command, ``thorough`` with
    GPUWISE_THOROUGH=1 (the counts the suite ran before issue 26 timed it). The hostile-input properties
    draw a fresh seed every run (no example database), so the default run still samples new cases each
    time; the thorough count is for a change to the parsers or the schema."""
    return thorough if THOROUGH else suite


def validation_rows(name: str) -> list[dict]:
    with open(DATA / "validation" / name, newline="") as fh:
        return list(csv.DictReader(fh))


def validation_row(name: str, rid: str) -> dict:
    """One row of a tests/data/validation csv, by its id."""
    with open(DATA / "validation" / name, newline="") as fh:
        return next(r for r in csv.DictReader(fh) if r["id"] == rid)


def memtracker_rows() -> list[dict]:
    return [json.loads(line) for line in (DATA / "memtracker_cpu.jsonl").read_text().splitlines() if line]


@pytest.fixture
def questions_read_once(monkeypatch):
    """``gpuwise ask`` reads and checks questions.yaml at every start (0.1 s: PyYAML's pure-Python
    loader); the test modules that drive it dozens of times share one read of the same file (a
    frozen Questionnaire, built by the real loader). A call with a path still reads that file."""
    from gpuwise.ask import questionnaire

    real = questionnaire.load_questions
    once = _questions()
    monkeypatch.setattr(questionnaire, "load_questions", lambda path=None: once if path is None else real(path))


@functools.cache
def _questions():
    from gpuwise.ask.questionnaire import load_questions

    return load_questions()


@pytest.fixture(scope="module")
def audits_share_their_search():
    """A module's audits that ask the same question (the same workload, constraints, cloud use,
    knowledge and rules; another proposed GPU, another used card) share the search for the
    alternative and its judgement, as a batch's audits do (``gpuwise.decide.audit.sharing``): each
    result is the one the audit gives alone (tests/test_audit_batch.py), and the search is most of
    an audit. Not for a module that patches the estimators or the rules in memory."""
    from gpuwise.decide.audit import sharing

    with sharing():
        yield


@pytest.fixture(scope="module")
def cli_answers_shared():
    """A module's in-process ``gpuwise recommend`` runs (tests/clirun.py) of one requirements file
    with the built-in knowledge and rules share one recommendation: the first run computes it, the
    others (another format, detail, language or currency of the same question) render a fresh copy
    of it (``pickle``, as :func:`answer_of` hands out), so each still parses its command line and
    writes its report. Keyed by the file's path and bytes; a dict, standard input, a ``--knowledge``
    or ``--rules`` folder, or an ``--fx-rate``, is computed as usual. Not for a module that patches gpuwise before a
    run."""
    from gpuwise.decide import recommend as module

    real = module.recommend
    kept: dict[tuple[str, bytes], bytes] = {}

    def shared(requirements, *, knowledge=None, rules=None, fx_rate=None):
        path = Path(requirements) if isinstance(requirements, (str, Path)) and str(requirements) != "-" else None
        if knowledge is not None or rules is not None or fx_rate is not None or path is None or not path.is_file():
            return real(requirements, knowledge=knowledge, rules=rules, fx_rate=fx_rate)
        key = (str(path.resolve()), path.read_bytes())
        if key not in kept:
            kept[key] = pickle.dumps(real(requirements), pickle.HIGHEST_PROTOCOL)
        return pickle.loads(kept[key])

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "recommend", shared)
        yield


def answer_of(command: str, path: Path | str):
    """``recommend``, ``audit`` or ``plan`` of a shipped file (examples/, tests/data/) with the
    built-in knowledge and rules: computed once per test process and shared by the modules that
    render or check the same answers (a fresh deep copy each call, so no test sees another's
    changes). Not for a test that patches gpuwise first: it would get the unpatched answer."""
    return pickle.loads(_answer(command, str(Path(path).resolve())))


@functools.cache
def _answer(command: str, path: str) -> bytes:
    """The answer pickled: a copy is one ``pickle.loads`` (half of ``model_copy(deep=True)``'s time,
    the same model, equal field for field)."""
    return pickle.dumps(_compute(command, path), pickle.HIGHEST_PROTOCOL)


def _compute(command: str, path: str):
    if command == "plan":
        from gpuwise.plan.build import plan

        return plan(path)
    if command == "audit":
        from gpuwise.decide.audit import audit

        return audit(path)
    assert command == "recommend", command
    from gpuwise.decide.recommend import recommend

    return recommend(path)


ANSWER_MODULES = {"test_terminal_width.py", "test_report_zh_all.py", "test_report_brief.py", "test_report_look.py",
                  "test_newcomer.py", "test_ledger.py", "test_report_phone.py", "test_screens_all.py",
                  "test_plan.py", "test_plan_terms.py", "test_plan_heldout.py", "test_phrases.py", "test_audit.py"}
"""Modules that check the same shipped answers (answer_of): one pytest-xdist worker runs them all."""

SOURCE_MODULES = {"test_one_definition.py", "test_typed_records.py", "test_package_shape.py", "test_error_lang.py",
                  "test_house_rules.py", "test_api.py"}
"""Modules that walk the syntax tree of every gpuwise module (tests/sources.py: parsed and listed
once per process, about 1.2 s a process): they run on the answers' worker with test_phrases, which
walks them too, so the package is parsed once in the run."""


COLD_AND_WARM_MODULES = {"test_code_cache.py", "test_regex_cache.py"}
"""Modules that check the caches two real ``gpuwise estimate`` processes leave (estimate_cold_and_warm):
one worker runs both, so the two processes are started once in the run."""

RUN_MODULES = {"test_compute.py", "test_training_fabric.py", "test_training_runs.py",
               "test_training_heldout_runs.py"}
"""Modules that score the published training runs (the ``accuracy`` fixture's published_run_cases): one
worker runs them, so each set of runs is estimated once in the run."""


def pytest_collection_finish(session):
    """Once the test modules are imported and collected, the objects alive then (gpuwise's and the
    tests' modules, parametrised cases, pytest's own) leave the cyclic garbage collector's watch:
    every full collection afterwards walked them again (about a tenth of the suite's CPU time).
    The garbage collector still collects everything the tests create.

    Its full collections are also made rarer (the third threshold, 10 -> 1,000 collections of the
    middle generation): each walked every object the tests had kept since (module fixtures, the
    shared answers, the caches), about 0.4 s each late in a worker's run and about 3 CPU-s of the
    suite; the younger generations, where the tests' garbage is, are collected as before."""
    gc.collect()
    gc.freeze()
    young, middle, _full = gc.get_threshold()
    gc.set_threshold(young, middle, 1000)


MEASURING: dict[str, tuple] = {}
"""Chromium runs begun ahead of the test that reads them: ``"phone"``: (pages, figures) of
tests/test_report_phone.py (tests/browser.py ``start``)."""


def pytest_runtest_setup(item) -> None:
    """Where this process runs the modules that check the shipped answers, and test_report_phone
    among them, its Chromium measurement is begun at the first of them: Chromium's 5-8 s, mostly
    waiting, then pass while the modules before test_report_phone run (its pages are made of
    answers those modules compute anyway; each is computed once in the process)."""
    if MEASURING or Path(str(item.path)).name not in ANSWER_MODULES | SOURCE_MODULES:
        return
    MEASURING["begun"] = ()  # asked once
    if not any(i.path.name == "test_report_phone.py" for i in item.session.items):
        return
    from tests import browser
    from tests import test_report_phone as phone

    if browser.CHROMIUM is None:
        return
    factory = getattr(item.config, "_tmp_path_factory", None)
    workdir = factory.mktemp("chromium") if factory is not None else Path(tempfile.mkdtemp())
    shown = phone.pages()
    MEASURING["phone"] = (shown, browser.start(shown, phone.WIDTHS, workdir))


def pytest_sessionfinish(session) -> None:
    """A Chromium run begun early that no test read (a run stopped early, a deselected module)."""
    for begun in MEASURING.values():
        process = getattr(begun[1], "process", None) if begun else None
        if process is not None and process.poll() is None:
            process.kill()
            process.communicate()


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config):
    """pytest collects garbage twice as a process ends (its unraisable-exception check), each a
    full collection walking every object the tests kept (over a million in a worker, about 0.3 s
    each): the garbage is collected once here, then what is alive leaves the collector's watch, so
    pytest's collections walk only what is made after. Every unreachable object is still freed and
    its finalizer run while pytest's hook for unraisable exceptions listens."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (pyproject) with ANSWER_MODULES and SOURCE_MODULES as one file: each
    module's tests on one worker (its module fixtures computed once), and the modules that check the
    same shipped answers or walk the same syntax trees on one worker together, so each shared answer
    is computed, and the package parsed, once in the run. (pytest-xdist's own
    ``loadgroup`` does not group under pytest 9: the worker's ``item.nodeid`` no longer shows the
    group it appends.) The files are handed out costliest first (:func:`_cost`)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Scheduling(LoadFileScheduling):
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            name = Path(scope).name
            if name in COLD_AND_WARM_MODULES:
                return "cold-and-warm"
            if name in RUN_MODULES:
                return "published-runs"
            return "answers" if name in ANSWER_MODULES | SOURCE_MODULES else scope

        def _assign_work_unit(self, node) -> None:
            if not self.ordered:  # the first assignment: the whole queue is known, none sent yet
                self.ordered = True
                order = sorted(self.workqueue.items(), key=lambda item: -_cost(item[0], len(item[1])))
                self.workqueue.clear()
                self.workqueue.update(order)
            super()._assign_work_unit(node)

    return Scheduling(config, log)


COST = {"answers": 28, "published-runs": 6, "test_search_defers_to_rules.py": 19.3, "test_hostile_inputs.py": 13.6,
        "test_rule_fixtures.py": 8.9, "test_hostile_twelfth.py": 7.6, "test_hostile_ninth.py": 5.6,
        "test_count_search.py": 5, "test_engine_load.py": 4.7, "test_odd_paths.py": 4.3, "test_fast_paths.py": 3.7,
        "test_hostile_seventh.py": 3.6, "test_memo.py": 3.5, "test_questionnaire.py": 3.5,
        "test_batch_folder.py": 3.3, "test_plan_zh.py": 3.2, "test_hostile_eleventh.py": 3.2, "test_ask_pty.py": 3.1,
        "test_serving_limits.py": 3, "test_report.py": 3, "test_cli.py": 2.8, "test_verdicts.py": 2.8,
        "test_hostile_eighth.py": 2.8, "test_audit.py": 2.5, "test_serving.py": 2.4, "test_plan_ask.py": 2.4,
        "test_audit_batch.py": 2.3, "test_hostile_more.py": 2.2, "test_smi_variants.py": 2.2,
        "test_hostile_fifth.py": 1.9, "test_china_import.py": 1.9, "test_hostile_tenth.py": 1.7,
        "test_fact_vocabulary.py": 1.6, "test_training_runs.py": 1.6, "test_cache.py": 1.5}
"""The CPU seconds (user+sys, the processes a test starts included) of the files that cost most,
measured test by test in a run of the whole suite on the 2-core machine (2026-12-03 13:01, at a load
of about 5: some 190 CPU-s in the tests in all; test_hostile_twelfth and the answers as they cost after
that day's changes to them); ``answers`` is ANSWER_MODULES and SOURCE_MODULES together. Only their order
matters."""


def _cost(scope: str, tests: int) -> float:
    """A work unit's expected CPU seconds: measured for the heavy files (COST), else its test count
    times a typical test's (0.05 s). The scheduler hands out the costliest first, so the run does not
    end waiting on one worker still running a heavy file handed out last (pytest-xdist's own order
    is by test count: test_search_defers_to_rules, with 40 tests and 30 CPU-s, came near the end)."""
    return COST.get(scope if scope in GROUPS else Path(scope).name, 0.05 * tests)


GROUPS = ("answers", "cold-and-warm", "published-runs")
"""The work units of several modules (Scheduling._split_scope), priced in COST by these names."""


@pytest.fixture
def search_runs(monkeypatch) -> list[int]:
    """One entry for each HiGHS search a plan's program runs (gpuwise.plan.milp._interruptible counted)."""
    from gpuwise.plan import milp

    runs: list[int] = []
    real = milp._interruptible

    def counted(run):
        real(run)
        runs.append(1)

    monkeypatch.setattr(milp, "_interruptible", counted)
    return runs
