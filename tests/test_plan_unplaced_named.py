"""A workload no GPU type can run names the type each reason is about (session 40, lead): a 70B full fine-tune
allowed one day on up to 8 rented RTX 4090 / A100 / H100 read 'no GPU type can run it: misses the deadline (19.2
days on 8 GPUs, 1 day allowed); misses the deadline (31.9 days ...); misses the deadline (80.6 days ...)', three
reasons and no type named."""

from gpuwise import plan

PLAN = {
    "horizon_months": 12,
    "workloads": [
        {"name": "bigft", "workload": {"task": "finetune", "method": "full", "model": "llama-3.1-70b",
                                       "seq_len": 4096, "train_tokens": 5.0e9},
         "cadence": {"at_month": 2}, "deadline_days": 1},
        {"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000,
                                      "output_tokens": 200},
         "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"requests_per_s": 2}},
    ],
    "constraints": {"acquisition": "rent", "gpus": ["rtx-4090", "h100-80gb-sxm", "a100-80gb-sxm"], "max_gpus": 8},
}


def test_each_reason_names_its_gpu_type():
    r = plan(PLAN)
    (u,) = [x for x in r.unplaced if x.workload == "bigft"]
    reasons = u.reason.split("no GPU type can run it: ", 1)[1].split("; ")
    assert len(reasons) == 3
    names = ("NVIDIA A100 SXM4 80GB", "NVIDIA GeForce RTX 4090 24GB", "NVIDIA H100 SXM5 80GB")
    assert all(any(x.startswith(f"{n}: misses the deadline (") for x in reasons) for n in names)
    # the slowest type takes longest: 8 RTX 4090s, well past the H100s' time
    days = {n: float(x.split("(")[1].split(" days")[0]) for x in reasons for n in names if x.startswith(n)}
    assert days["NVIDIA H100 SXM5 80GB"] < days["NVIDIA A100 SXM4 80GB"] < days["NVIDIA GeForce RTX 4090 24GB"]
    assert all(d > 1 for d in days.values())


def test_a_reason_that_names_its_type_is_not_named_twice():
    from gpuwise.plan.build import _on_gpu
    from gpuwise.plan.why import why

    named = why("price", "plan.why.not_rented", gpu="NVIDIA B200")
    assert _on_gpu("NVIDIA B200", named) is named
    bare = why("deadline", "plan.why.deadline", days=3.0, n=8, allowed=1.0)
    assert _on_gpu("NVIDIA B200", bare).text.startswith("NVIDIA B200: misses the deadline (")
