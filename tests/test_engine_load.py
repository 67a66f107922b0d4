"""The rule engine under load: many sessions, several threads, bounded memory, no leaks."""

from __future__ import annotations

import resource
import threading

from gpuwise import recommend
from gpuwise.decide import engine as rules
from gpuwise.decide import rulebook

from .conftest import examples

BOOK = rulebook.load()


def _small_facts(i: int) -> list[dict]:
    return [
        {"t": "candidate", "stage": "memory", "tag": "", "gpu": "h100-80gb-sxm", "count": 8, "acquisition": "rent",
         "need_gb": 70.0 + (i % 3) * 10, "need_requested_gb": 90.0 if i % 2 else 70.0, "capacity_gb": 81.0,
         "training": True, "multi_gpu": True, "efficiency": 0.45 + (i % 5) / 10, "wall_days": 3.0,
         "deadline_days": 2.0 + i % 2 * 5, "has_deadline": True, "cuda_device": True, "tensor_cores": True,
         "acquisition_wanted": "rent", "rent_known": True, "buy_known": False, "tp": 1, "per_node": 8,
         "has_budget": False},
        {"t": "job", "full_training": True, "task": "finetune", "server_capacity_gb": 80.0,
         "server_need_gb": 70.0 if i % 2 == 0 else 90.0},
        {"t": "price", "what": f"p{i}", "used": True, "age_days": 400},
    ]


def test_thousands_of_consultations_from_four_threads():
    """4 x 500 sessions (4 x 2,500 with GPUWISE_THOROUGH=1): more than the 1,024 live sessions
    durable-rules allows, so a session left open by any consultation would be refused."""
    errors: list[BaseException] = []
    fired = [0] * 4
    each = examples(500, 2500)

    def worker(k: int) -> None:
        try:
            for i in range(each):
                fired[k] += len(rules.run(BOOK, _small_facts(i)).firings)
        except BaseException as exc:
            errors.append(exc)

    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(f > each for f in fired)
    assert rules.live_sessions() == 0
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0
    assert grown_kb < 100_000  # well under 100 MB for 10,000 sessions (durable would refuse >1,024 live ones)


def test_full_recommendations_from_threads_agree():
    req = {"workload": {"task": "finetune", "method": "lora", "model": "llama-2-13b", "train_tokens": 1e8},
           "constraints": {"max_gpus": 8}}
    first = recommend(req).recommendation
    results = []

    def worker() -> None:
        for _ in range(2):
            results.append(recommend(req).recommendation)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8 and all(r == first for r in results)


def test_catch_all_handles_every_fact_and_never_fires(monkeypatch):
    """A batch of facts no rule but the catch-all matches (prices neither used nor old) is accepted
    -- durable-rules raises MessageNotHandledException for a fact no rule's first condition matches
    -- and the catch-all, whose second condition waits for a fact never asserted, fires on none of
    them: no fact is handed back to Python for it (it was handed every fact at every stage), and
    the session is deleted as any other."""
    handed: list[object] = []
    wrapper = rules._durable.Content

    class Counting(wrapper):  # type: ignore[misc, valid-type]
        def __init__(self, data: dict) -> None:
            if "t" in data:  # a fact (an action's session state is wrapped too)
                handed.append(data)
            super().__init__(data)

    monkeypatch.setattr(rules._durable, "Content", Counting)
    quiet = [{"t": "price", "what": f"q{i}", "used": False, "age_days": 1} for i in range(50)]
    session = rules.run(BOOK, quiet)
    assert session.firings == []
    assert handed == []  # the old catch-all, with a cap, was handed all 50 in one batch
    assert rules.live_sessions() == 0
    busy = rules.run(BOOK, _small_facts(1))
    assert busy.firings and all(rid not in (rulebook.SEEN, rulebook.OPEN) for rid, _i, _s in busy.firings)
    assert len(handed) == len(busy.firings)  # each fact handed to the rules that fired on it, no more
    assert rules.live_sessions() == 0


def test_registering_a_ruleset_leaves_the_book_as_it_was():
    """durable-rules deletes each rule's ``run`` as it registers a ruleset: the engine hands it a
    copy of each rule's top level, so the rule book's own definition (cached, and registered again
    under other names for other fact types) keeps every action name."""
    book = rulebook.load(None, {**BOOK.policy, "value_of_a_day_usd": 1234.0})  # a book not registered yet
    before = {rid: dict(rule) for rid, rule in book.definition().items()}
    rules.run(book, _small_facts(0))
    assert book.definition() == before
    assert all("run" in rule for rule in book.definition().values())
