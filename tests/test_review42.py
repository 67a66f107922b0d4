"""review42: a user's hour with session 34's merges (SGLang's fused_kernel_models per release, the published FP4
checkpoints' 16-bit and FP8 parts). Each test fails on the code before its fix; the whole round is
benchmarks/hostile_round33.py."""

from __future__ import annotations

from gpuwise import estimate

QWEN = {"task": "inference", "model": "qwen3.5-122b-a10b", "framework": "sglang", "quantization": "nvfp4",
        "prompt_tokens": 2000, "output_tokens": 500, "concurrent_requests": 16}


def _notes(w: dict, field: str) -> list:
    return [a for a in estimate({"workload": w}, gpu="b200", gpus=2).assumptions if a.field == field]


def test_no_release_given_says_the_fused_kernel_list_it_read() -> None:
    # knowledge/serving.yaml sglang: the release entries' newest is 0.5.7, and fused_kernel_models first lists the
    # Qwen3.5 sizes from 0.5.10 (ServerArgs' fusion block in the 0.5.10 wheel). With no release given the newest list
    # is read, so Qwen3.5-122B-A10B's small kernels cost 2 us, not 0.5.7's 6 us; the screen said only '0.5.7',
    # while stating 0.5.7 gave a TPOT 25% longer (8.41 -> 10.48 ms on 2 x B200).
    [n] = _notes(QWEN, "workload.framework_version")
    assert n.message_id == "assume.default.workload.framework_version.fused_list"
    assert n.values["since"] == "0.5.10" and n.values["version"] == "0.5.7" and n.value == "0.5.7"
    unstated = estimate({"workload": QWEN}, gpu="b200", gpus=2).gpu.serving
    stated = estimate({"workload": {**QWEN, "framework_version": "0.5.7"}}, gpu="b200", gpus=2).gpu.serving
    assert stated.tpot_s > unstated.tpot_s * 1.1  # what the note warns of
    # a model 0.5.7 lists already (DeepSeek-R1): the plain note, nothing more to say
    [r1] = _notes({**QWEN, "model": "deepseek-r1", "quantization": None}, "workload.framework_version")
    assert r1.message_id == "assume.default.workload.framework_version"


def test_the_published_checkpoint_priced_is_named() -> None:
    # knowledge/serving.yaml fp4_checkpoints gemma-4-26b-a4b: nvidia/Gemma-4-26B-A4B-NVFP4 keeps every non-expert
    # weight in BF16 (Model-Optimizer published_checkpoints.json @ d69ab24e), 17.6 GB of text weights where every
    # linear in NVFP4 would be far less; the screen priced that file without naming it.
    w = {"task": "inference", "model": "gemma-4-26b-a4b", "framework": "vllm", "quantization": "nvfp4",
         "prompt_tokens": 2000, "output_tokens": 500, "concurrent_requests": 8}
    [n] = _notes(w, "workload.quantization")
    assert n.message_id == "assume.published_checkpoint"
    assert n.values["repository"] == "nvidia/Gemma-4-26B-A4B-NVFP4" and n.values["table"] == "fp4_checkpoints"
    assert not _notes({**w, "model": "llama-3.1-8b"}, "workload.quantization")  # no published entry: nothing said
    assert not _notes({**w, "quantization": "fp8"}, "workload.quantization")  # not served in the entry's format


def test_a_two_matrix_mlp_says_the_width_its_activations_are_counted_at() -> None:
    # knowledge/models.yaml apertus-8b: FFN 21,504 as two matrices (xIELU, swiss-ai/Megatron-LM
    # launcher_sft_apertus_8b.sh @ 7c540a6e). The activation term counts a gated MLP's 8 B an ffn element at
    # ffn_size x 2 / 3 = 14,336 and showed only 'ffn = 14,336', Llama 3 8B's width, with no word of why.
    r = estimate({"workload": {"task": "finetune", "method": "lora", "model": "apertus-8b", "train_tokens": 2.0e7}},
                 gpu="rtx-4090", gpus=1)
    t = next(t for t in r.memory.terms if t.name == "activations")
    assert t.inputs["ffn_size"] == 21504 and t.inputs["mlp_matrices"] == 2
    assert t.inputs["ffn"] == 21504 * 2 / 3 == 14336


def test_an_attention_backend_of_another_generation_is_refused() -> None:
    # sgl-project/sglang attention_registry.py @ 43681aaa: create_flashattention_v3_backend asserts a device major of
    # 8 (no MLA) or 9 ('FlashAttention v3 Backend requires SM>=80 and SM<=90'); the server arguments stop trtllm_mla
    # off Blackwell. fa3 on a B200 (10.0) and trtllm_mla on an H100 (9.0) were priced as running.
    chat = {"task": "inference", "model": "llama-3.1-8b", "framework": "sglang", "prompt_tokens": 1000,
            "output_tokens": 200, "concurrent_requests": 4}
    glm = {**chat, "model": "glm-4.7-flash"}

    def runs(w: dict, gpu: str) -> tuple[bool, str, list[str]]:
        g = estimate({"workload": w}, gpu=gpu, gpus=1).gpu
        return g.serving.supports.gpu, g.serving.supports.reason, [x.rule for x in g.rejected_by]

    assert runs({**chat, "attention_backend": "fa3"}, "b200") == (
        False, "attention_backend_compute_capability", ["CMP-ATTENTION-BACKEND-GPU"])
    assert runs({**chat, "attention_backend": "fa3"}, "h100-80gb-sxm")[0] is True
    assert runs({**chat, "attention_backend": "fa3"}, "a100-80gb-sxm")[0] is True
    assert runs({**glm, "attention_backend": "trtllm_mla"}, "h100-80gb-sxm")[0] is False
    assert runs({**glm, "attention_backend": "trtllm_mla"}, "b200")[0] is True
    assert runs({**chat, "attention_backend": "trtllm_mha"}, "h100-80gb-sxm")[0] is True  # later releases admit SM90
