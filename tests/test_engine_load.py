"""The rule engine under load: many sessions, several threads, bounded memory, no leaks."""

from __future__ import annotations

import resource
import threading

from gpuwise import recommend
from gpuwise.decide import engine as rules
from gpuwise.decide import rulebook

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


def test_ten_thousand_consultations_from_four_threads():
    errors: list[BaseException] = []
    fired = [0] * 4

    def worker(k: int) -> None:
        try:
            for i in range(2500):
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
    assert all(f > 2500 for f in fired)
    assert rules.live_sessions() == 0
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0
    assert grown_kb < 100_000  # well under 100 MB for 10,000 sessions (durable would refuse >1,024 live ones)


def test_full_recommendations_from_threads_agree():
    req = {"workload": {"task": "finetune", "method": "lora", "model": "llama-2-13b", "train_tokens": 1e8},
           "constraints": {"max_gpus": 8}}
    first = recommend(req).recommendation
    results = []

    def worker() -> None:
        for _ in range(3):
            results.append(recommend(req).recommendation)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 12 and all(r == first for r in results)
