"""The blind rounds of independent serving and request-rate rows that benchmarks/accuracy.py reports each on its
own line: an id pattern and the line's labels. Kept apart from accuracy.py, which grows a round at a time."""

from __future__ import annotations

#: The blind rounds of independent serving rows, each reported on its own (none of them set a constant): the
#: id prefix, the throughput line's label, the latency line's label (None: not reported) and where the rows
#: came from; each round's blind figures are in the validation README.
SERVING_ROUNDS: tuple[tuple[str, str, str | None], ...] = (
    # the rows gathered at stop 30 (ids W..: InferenceX 2026 sweeps of SGLang 0.5.12 and TensorRT-LLM 1.3 on
    # H200/B200/B300, vLLM's Qwen3 FP8 rows on MI300X)
    ("W", "  of which the rows added at stop 30 (ids W..): throughput",
     "  of which the rows added at stop 30 (ids W..): latency"),
    # the rows gathered at stop 32 (ids X..: SGLang's cookbook speed benchmarks of DeepSeek-R1-0528 and
    # Qwen3-235B-A22B on 8 x B200, Llama 4 Scout/Maverick on 8 x MI300X, gpt-oss-120b and Kimi K2 on 8 x B200,
    # DeepSeek-V3 on 8 x MI300X; gpt-oss-20b on one H100; vLLM's GLM-4.6 on 8 x MI300X): scored blind when added,
    # those blind figures are in the validation README; what prints here is after stop 32's change, so not blind
    ("X", "  of which the rows added at stop 32 (ids X..; not blind: blind figures in the validation README): "
     "throughput",
     "  of which the rows added at stop 32 (ids X..; not blind): latency"),
    # the rows gathered at stop 33 (ids Y..: TensorRT-LLM's performance overview, late-2025 edition with MoE tables:
    # DeepSeek-R1, gpt-oss, Llama 4 Maverick, Qwen3 MoE and Llama 3.3 70B at maximum load on B200/H200/H100, most of
    # them attention data parallel + expert parallel): scored blind when added, blind figures in the validation README
    ("Y", "  of which the rows added at stop 33 (ids Y..; blind figures in the validation README): throughput",
     None),
    # the rows gathered at stop 34 (ids Z..: GPUStack's performance lab, vllm bench serve runs of DeepSeek-R1,
    # DeepSeek-V3.2, Qwen3-235B, GLM-4.6/4.5-Air, gpt-oss and Qwen3-8B/14B on H200/H100/A100 with vLLM 0.10-0.13 and
    # SGLang 0.5.3: bursts of 100-500 prompts sent at once and ShareGPT at concurrency 1-8): blind figures in the README
    ("Z", "  of which the rows added at stop 34 (ids Z..; blind figures in the validation README): throughput",
     "  of which the rows added at stop 34 (ids Z..): latency"),
    # the rows gathered at session 10 (ids U..: Argonne's LLM-Inference-Bench vLLM batches on H100 and MI300X,
    # inference-bench on L4/A100, vLLM on an RTX 4090 and an A40): blind figures in the validation README
    ("U", "  of which the rows added at session 10 (ids U..; blind figures in the validation README): throughput",
     "  of which the rows added at session 10 (ids U..): latency"),
    # the rows gathered at session 11 (ids T..: TensorRT-LLM's DeepSeek-R1 best-practice page, trtllm-bench at
    # concurrency 1,024-7,168 on 8 x B200 / 8 x H200; its H200 launch blogs' static batches of Llama-2 13B/70B FP8)
    ("T", "  of which the rows added at session 11 (ids T..; blind figures in the validation README): throughput",
     None),
    # the rows gathered at session 13 (ids Q..: vLLM's FP8 KV-cache blog of Apr 2026, Llama-3.1-8B and gpt-oss-20b on
    # one H100 at concurrency 8 with 20k-token prompts; vLLM pull request #25135, Llama 3.1 405B MXFP4 on one MI355X;
    # vllm-project/recipes pull request #431, Qwen3-8B on one MI300X; GLM-4.5-Air FP8 on B200 with vLLM and SGLang from
    # their MoE-config pull requests #23695 / #9770): blind figures in the validation README
    ("Q", "  of which the rows added at session 13 (ids Q..; blind figures in the validation README): throughput",
     None),
    # the rows gathered at session 14 (ids N..: vLLM/SGLang pull requests' benchmark runs of Qwen3-30B-A3B on H100/H200,
    # DeepSeek-V3/R1 on 8 x H20 and 24 x L20, DeepSeek-V3.1 on 8 x H200): blind figures in the validation README
    ("N", "  of which the rows added at session 14 (ids N..; blind figures in the validation README): throughput",
     None),
    # the rows gathered at session 15 (ids R..: vLLM issue #17788 Qwen3-32B on one H100 NVL, pull request #48757
    # Qwen3-32B FP8 on 8 x H100, #44437 DeepSeek-R1 MXFP4 on 8 x MI350X; TensorRT-LLM issues #4043 Llama 3.1 405B
    # FP8 on 8 x B200 / 8 x H200 and #5929 DeepSeek-R1 FP8 on 8 x H200): blind figures in the validation README
    ("R", "  of which the rows added at session 15 (ids R..; blind figures in the validation README): throughput",
     "  of which the rows added at session 15 (ids R..): latency"),
    # the rows gathered at session 16 (ids S..: dstackai/benchmarks' DeepSeek-R1 FP8 sweep of Mar 2025, vLLM, SGLang
    # and TensorRT-LLM on 8 x H200 and 8 x MI300X, random 3200/800 at concurrency 4-128): blind figures in the
    # validation README
    ("S", "  of which the rows added at session 16 (ids S..; blind figures in the validation README): throughput",
     "  of which the rows added at session 16 (ids S..): latency"),
    # the rows gathered at session 17 (ids P..: vLLM's recipes pages, Kimi K2 Thinking INT4 / Kimi K2 FP8 /
    # DeepSeek-V3.2 on H200 and H20, DeepSeek-R1 on 8 x MI300X, Llama 3.3 70B on one MI355X; vLLM issue #49723,
    # Mistral Small 24B BF16/NVFP4 on one B200): blind figures in the validation README
    ("P", "  of which the rows added at session 17 (ids P..; blind figures in the validation README): throughput",
     "  of which the rows added at session 17 (ids P..): latency"),
    # the rows gathered at session 18 (ids A..: InferenceX baseline tables of DeepSeek-R1-0528 FP8 with SGLang 0.5.12
    # on 8 / 4 x B300 (pull request #3175) and SGLang 0.5.19's ROCm build on 8 x MI325X (#3318); vLLM pull request
    # #43232, Qwen3-235B FP8 on 4 x B200; tenstorrent/tt-inference-server issue #143, Qwen2.5-72B BF16 on 2 x H100 at
    # concurrency 1): blind figures in the validation README
    ("A", "  of which the rows added at session 18 (ids A..; blind figures in the validation README): throughput",
     "  of which the rows added at session 18 (ids A..): latency"),
    # the rows gathered at session 19 (ids D..: SemiAnalysisAI/InferenceX issue #828, gpt-oss-120b MXFP4 with vLLM
    # 0.15.1 on 2 / 4 / 8 x H100 at 1k/1k, 1k/8k and 8k/1k, concurrency 4 and 64): blind figures in the README
    ("D", "  of which the rows added at session 19 (ids D..; blind figures in the validation README): throughput",
     "  of which the rows added at session 19 (ids D..): latency"),
    # the rows gathered at session 20 (ids G..: SGLang's cookbook speed benchmark of Llama-3.1-70B BF16 on 8 x A100 with
    # SGLang 0.5.6, 1k/1k and 8k/1k at concurrency 1-100): issue 22's latency blind round, blind figures in the README
    ("G", "  of which the rows added at session 20 (ids G..; blind figures in the validation README): throughput",
     "  of which the rows added at session 20 (ids G..): latency"),
    # the throughput round of session 20 (ids E..: SGLang's fused-MoE-config pull requests #7631, #7687, #6111, #6939,
    # #12343: DeepSeek-V3 FP8 on 8 x H20, 16 x H200 over two nodes, 8 x B200; Qwen3-30B-A3B FP8 on 4 x H200): blind
    # figures in the validation README
    ("E", "  of which the rows added at session 20 (ids E..; blind figures in the validation README): throughput",
     None),
    # the big-MoE round of session 21 (ids DS..: DataCrunch's DeepSeek-V3 SGLang v0.4.3.post2 runs on 8 x H200, one
    # request and 10,000-prompt bursts, TP 8 and --enable-dp-attention): blind figures in the validation README
    ("DS", "  of which the rows added at session 21 (ids DS..; blind figures in the validation README): throughput",
     "  of which the rows added at session 21 (ids DS..): latency"),
    # the latency round of session 21 (ids LT..: vLLM issues #20710, Llama-3.3-70B FP8 on 2 x B200 with vLLM 0.9.0 at
    # concurrency 1 and 16, and #20469, Qwen3-14B-AWQ on one A100 with 16k prompts at concurrency 1): blind figures in
    # the validation README
    ("LT", "  of which the rows added at session 21 (ids LT..; blind figures in the validation README): throughput",
     "  of which the rows added at session 21 (ids LT..): latency"),
    # the AMD serving round of session 22 (ids AM..: ROCm/ATOM pull request #409, vLLM with the ATOM plugin serving
    # DeepSeek-R1-0528 FP8 at TP 8 on 8 x MI355X, random 1k/1k, 1k/8k and 8k/1k at concurrency 4-64): blind figures
    # in the validation README
    ("AM", "  of which the rows added at session 22 (ids AM..; blind figures in the validation README): throughput",
     "  of which the rows added at session 22 (ids AM..): latency"),
    # the TTFT round of session 22 (ids TT..: GPUStack's Qwen3-32B BF16 page on one H100, vllm bench serve bursts of
    # 100-1,000 prompts sent at once to vLLM 0.11.0, SGLang 0.5.5.post1 and TensorRT-LLM 1.2.0rc1): blind figures in
    # the validation README
    ("TT", "  of which the rows added at session 22 (ids TT..; blind figures in the validation README): throughput",
     "  of which the rows added at session 22 (ids TT..): latency"),
    # the TTFT round of session 23 (ids TA..: GPUStack's Qwen3-32B and Qwen3-14B BF16 pages on one A100, vllm bench
    # serve bursts of 500-1,000 prompts sent at once to vLLM 0.11.0, SGLang 0.5.5.post1 and TensorRT-LLM 1.2.0rc1):
    # blind figures in the validation README
    ("TA", "  of which the rows added at session 23 (ids TA..; blind figures in the validation README): throughput",
     "  of which the rows added at session 23 (ids TA..): latency"),
    # the SGLang cookbook round of session 26 (ids CK..: sgl-project/sgl-cookbook pages of MiniMax-M2/M2.5/M2.7 on
    # MI300X, B200, H100 and GB300, Qwen3-Coder-480B FP8 and ERNIE-4.5-21B on MI300X, concurrency 16-100): blind figures
    # in the validation README
    ("CK", "  of which the rows added at session 26 (ids CK..; blind figures in the validation README): throughput",
     "  of which the rows added at session 26 (ids CK..): latency"),
    # the other-sources round of session 26 (ids VP..: vLLM and SGLang pull requests with benchmark output, Lambda's
    # model pages; Qwen3-Coder-480B, gpt-oss-120b, MiniMax-M2/M2.5, Qwen3-30B-A3B, Kimi K2.6): blind figures in README
    ("VP", "  of which the rows added at session 26 (ids VP..; blind figures in the validation README): throughput",
     "  of which the rows added at session 26 (ids VP..): latency"),
    # the TensorRT-LLM round of session 26 (ids TR..: the performance overview's 0.20.0 edition, Llama 3.3 70B, Llama
    # 3.1 405B and Llama 4 Maverick at TP 4-8 on B200/H200/H100, and its release 1.2 edition, DeepSeek-R1, gpt-oss-120b,
    # Qwen3 MoE and Llama 3.3 70B on B300/H200, all at maximum load): blind figures in the validation README
    ("TR", "  of which the rows added at session 26 (ids TR..; blind figures in the validation README): throughput",
     None),
    # the serveblind7 round (ids SW..: vLLM's MiniMax-M2 recipe on 4 x H20-3e, vLLM issue #30326's gpt-oss-120b on
    # 8 x H200, GPUStack's GLM-4.6 FP8 on 8 x H100 and GLM-4.5-Air on 4 x A100 ShareGPT bursts, a Nebius cluster's
    # InferenceX runs of DeepSeek-R1 (SGLang 0.5.12) and gpt-oss-120b (vLLM 0.22) on H200): blind figures in README
    ("SW", "  of which the rows added by serveblind7 (ids SW..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind7 (ids SW..): latency"),
    # the serveblind8 round (ids VC..: Vultr's inference cookbook, MiniMax-M2.5 FP8 at TP 4 on 4 x B200, vLLM 0.12.0,
    # random 2048/512 at concurrency 8-32; its concurrency-1 point is VC04 in decode_independent.csv)
    ("VC", "  of which the rows added by serveblind8 (ids VC..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind8 (ids VC..): latency"),
    # the serveblind9 round (ids NB..: InferenceX's dashboard data as the InferenceX-app test fixture carries it,
    # DeepSeek-R1-0528 FP8 / MXFP4 / NVFP4 on one node of MI355X, MI300X, MI325X and B200, SGLang 0.5.6-0.5.12, random
    # 1k/1k and 8k/1k at range ratio 0.8, concurrency 8-64)
    ("NB", "  of which the rows added by serveblind9 (ids NB..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind9 (ids NB..): latency"),
    # the serveblind11 round (ids GS..: Scicom's llm-benchmaxxing results, vLLM on 8 x B200 / H200 / H100 serving
    # Qwen3-32B BF16 at TP 8 and TP 4 x 2 copies and GLM-4.7 BF16 / FP8 at TP 8, bursts of 100 prompts of 1,024 and
    # 15,000 tokens, 128 out)
    ("GS", "  of which the rows added by serveblind11 (ids GS..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind11 (ids GS..): latency"),
    # the serveblind12 round (ids SQ..: SGLang fused-MoE config pull requests #10404 / #10467, Qwen3-Next-80B-A3B BF16
    # on H200 at TP 2/4/8 and H20 at TP 4/8, 100-prompt bench_serving closed loops, 1,000 in / 2,000 out, at 8 / 32)
    ("SQ", "  of which the rows added by serveblind12 (ids SQ..; blind figures in the validation README): throughput",
     None),
    # the serveblind13 round (ids SY..: AMD-AGI/Magpie pull request #88, Qwen3-Coder-480B MXFP4 / FP8 on 4 x MI355X;
    # InferenceX pull requests #3311 (Qwen3.5-397B-A17B MXFP4 on MI355X, SGLang 0.5.19, 8k/1k), #980 (BF16, 8 x MI355X)
    # and #1544 (FP8 on 8 x H100, SGLang 0.5.12, 1k/1k))
    ("SY", "  of which the rows added by serveblind13 (ids SY..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind13 (ids SY..): latency"),
    # the serveblind14 round (ids SZ..: InferenceX's CI artifacts as gminneci/mantile stores them: run 20667906037,
    # gpt-oss-120b MXFP4 on 2 x H100 / H200 / B200 at TP 2, vLLM 0.13.0, 1k/1k, 1k/8k and 8k/1k at 8 and 64; runs
    # 20720630953 and 20613446912, DeepSeek-R1-0528 FP8 on 8 x MI300X / MI325X / H200, SGLang, 1k/1k and 8k/1k at 32;
    # serveblind15's SZ25-SZ45 from the same store: gpt-oss-120b on B200 with TensorRT-LLM 1.2.0rc2 (run 20286968709,
    # TP 1 / 2 / 4), DeepSeek-R1-0528 on 8 x MI355X FP8 / MXFP4 and 8 x B200 FP8, SGLang, TP 8, 1k/1k and 8k/1k at 32)
    ("SZ", "  of which the rows added by serveblind14 and serveblind15 (ids SZ..; blind figures in the validation "
     "README): throughput",
     "  of which the rows added by serveblind14 and serveblind15 (ids SZ..): latency"),
    # the serveblind16 round (ids SK..: SGLang pull request #32323's Qwen3.5 cookbook re-bench on SGLang 0.5.16,
    # 9B / 27B / 35B-A3B / 397B-A17B on H100 / H200 / B200 / B300, random 8k/1k at concurrency 1024, no speculative
    # decoding; SGLang's MiniMax-M2.7 cookbook cells on 2 / 4 / 8 x MI300X, SGLang 0.5.13.post1, 1k/1k at 16-4096;
    # vLLM's Nemotron-3-Nano-30B-A3B recipe, FP8 on one H200, vLLM 0.12.0, 1k/1k at 1024)
    ("SK", "  of which the rows added by serveblind16 (ids SK..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind16 (ids SK..): latency"),
    # the serveblind17 round (ids SV..: ROCm/vllm's dev-docker README at b309ea79, vLLM 0.7.3 on 8 x MI300X, Llama 3.1
    # 70B / 405B FP8 at maximum load and in benchmark_latency batches of 64 / 128; the vLLM recipe's Ministral 3
    # 3B / 8B / 14B FP8 on one MI300X, vllm bench serve 1k/1k at concurrency 32 over 100 prompts)
    ("SV", "  of which the rows added by serveblind17 (ids SV..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind17 (ids SV..): latency"),
    # the serveblind18 round (ids SJ..: SGLang's Qwen3.6 cookbook speed cells, pull request #32959's
    # qwen3.6-benchmarks.jsx at 4b7077be, Qwen3.6-35B-A3B BF16 / FP8 / NVFP4 on one H200 / B200 / B300, SGLang
    # 0.5.15-0.5.16, random 8k/1k at concurrency 1024 and 4096, no speculative decoding)
    ("SJ", "  of which the rows added by serveblind18 (ids SJ..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind18 (ids SJ..): latency"),
    # the serveblind19 round (ids SN..: an independent user's TensorRT-LLM 0.16.0 sweep,
    # shaamil101-etched/trtllm-benchmarks at aeec9f29, Llama-3.1-70B FP8 at TP 8 on 8 x H100, trtllm-bench throughput)
    ("SN", "  of which the rows added by serveblind19 (ids SN..; blind figures in the validation README): throughput",
     None),
    # the mlperfinf round (ids ML..: MLPerf Inference Offline results, v4.1 / v5.1 llama2-70b-99 (ML01-ML11: NVIDIA
    # TensorRT-LLM on B200 / GB200 / H200 / H200 NVL / H100 / GH200, AMD vLLM on MI300X / MI325X / MI355X) and v5.1
    # Mixtral 8x7B, Llama 3.1 405B / 8B and DeepSeek-R1 (ML22-ML32); the Server results of the same systems are rows
    # ML12-ML21 and ML33-ML43 of serving_rate.csv, reported with the rate rows)
    ("ML", "  of which the rows added by mlperfinf (ids ML..: MLPerf Inference Offline; blind figures in the "
     "validation README): throughput", None),
    # the mlperfinf2 round (ids MP..: MLPerf Inference Offline results not used by ML: v6.0 B300 (NVIDIA, GIGABYTE),
    # MI355X / MI350X (AMD, MiTAC) and RTX PRO 6000 (HPE); v5.1 RTX PRO 6000 Mixtral (HPE), one L40S (Red Hat vLLM),
    # Krai's open Llama 3.1 70B on vLLM / SGLang; v4.1 H100 NVL (HPE), 8 x L40S (Fujitsu), H100 Mixtral (NVIDIA);
    # MP01-MP17, their Server twins MP18-MP34 in serving_rate.csv)
    ("MP", "  of which the rows added by mlperfinf2 (ids MP..: MLPerf Inference Offline; blind figures in the "
     "validation README): throughput", None),
    # the serveblind20 round (ids SP..: Lambda's model pages for GLM-4.7-Flash, Qwen3.5-397B-A17B and GLM-5 (SGLang,
    # random 8k/1k at 32); MLPerf Inference v6.1 DeepSeek-R1 Offline on NVIDIA's 8 x B300; GPUStack's Qwen3.5-35B-A3B
    # (one H200) and Qwen3.5-9B (one H100) pages, vLLM 0.17.1 / SGLang 0.5.9 through guidellm at 512 in flight and
    # one-batch bursts; the Server twin and two paced runs are RP01-RP03 of serving_rate.csv)
    ("SP", "  of which the rows added by serveblind20 (ids SP..; blind figures in the validation README): throughput",
     None),
    # the serveblind21 round (ids SE..: vLLM and SGLang pull requests and issues of 2025-26 with their printouts:
    # Qwen3.5-397B-A17B FP8 on 4 x MI300X (AMD-AGI Hyperloom #428), DeepSeek-R1 NVFP4 on 4 x B200 (SGLang #17309),
    # MiniMax-M2.5 FP8 on 4 x H100 (vLLM #34924), Qwen3-Coder-Next FP8 on 2 x H100 (SGLang #18195), DeepSeek-R1
    # FP8 on 8 x H200 (vLLM #34206), Qwen3-30B-A3B on 4 x A40 (SGLang #6121))
    ("SE", "  of which the rows added by serveblind21 (ids SE..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind21 (ids SE..): latency"),
    # the serveblind23 round (ids SG..: InferenceX pull request #1531's local numbers, gpt-oss-120b MXFP4 on one
    # MI355X, vLLM 0.19.0 with AITER, random 1k/1k at concurrency 4-128; InferenceX's experimental token-position
    # sweeps, MiniMax-M2.5 FP8 TP 8 + EP and Qwen3.5-397B-A17B BF16 TP 8 on 8 x H200, vLLM main of February 2026)
    ("SG", "  of which the rows added by serveblind23 (ids SG..; blind figures in the validation README): throughput",
     None),
    # the serveblind24 round (ids SH..: MLPerf Inference DeepSeek-R1 Offline logs of submitters no row cited before,
    # v6.0 Nebius / Dell / Google B200 and Cisco / Quanta / Giga Computing B300, v5.1 Dell / Giga Computing B200,
    # HPE's open-division 8 x H200; SGLang's MiniMax-M3 cookbook cells on B200 / B300 / GB300 / H200 / MI355X;
    # sgl-cookbook's Nemotron 3 Nano / Super printouts; GPUStack's GLM-4.6 FP8 bursts on 8 x A100)
    ("SH(?=[01]\\d\\b|20\\b)", "  of which the rows added by serveblind24 (ids SH01-SH20; blind figures in the "
     "validation README): throughput", None),
    # the serveblind25 round (ids SH21..: vLLM pull request #48983's stock baseline, Gemma 4 26B-A4B NVFP4 on one RTX
    # PRO 6000 Blackwell, random 1k/1k at concurrency 32; the vLLM blog's EAGLE3-on-AMD no-speculation bars,
    # MiniMax-M2.5 FP8 and Kimi-K2.5 MXFP4 on 4 x MI355X at TP 4, 1K/1K at concurrency 4-64)
    ("SH(?=2[1-9]|3[01])", "  of which the rows added by serveblind25 (ids SH21-SH31; blind figures in the validation "
     "README): throughput", "  of which the rows added by serveblind25 (ids SH21-SH31): latency"),
    # the serveblind26 round (ids SH32..: InferenceX issue #870's B200 sweep, DeepSeek-R1-0528 NVFP4 on 8 x B200, SGLang
    # 0.5.6 TP 8 EP 8, random 1k/1k at concurrency 4-64; the round's rate rows are RT15.. in RATE_ROUNDS)
    ("SH(?=3[2-6])", "  of which the rows added by serveblind26 (ids SH32-SH36; blind figures in the validation "
     "README): throughput", "  of which the rows added by serveblind26 (ids SH32-SH36): latency"),
    # the serveblind28 round (ids SH37..: llm-d's MI355X performance reference, Llama-3.3-70B FP8 at TP 8 on 8 x MI355X,
    # vLLM 0.15.1, random 1k/256 to 64k/128 at concurrency 2-256; AMD's ROCm blog on reasoning benchmarks, Qwen3-8B on
    # one MI300X, vLLM 0.9.1, bursts of 128; an Azure MI300X handbook's Qwen3-235B-A22B BF16 on 8 x MI300X, vLLM 0.8.3,
    # evalscope at 256 in flight)
    ("SH(?=3[7-9]|4\\d|5[01])", "  of which the rows added by serveblind28 (ids SH37-SH51; blind figures in the "
     "validation README): throughput", "  of which the rows added by serveblind28 (ids SH37-SH51): latency"),
    # the sparkblind57 round (ids SH52..: djangodevreng/dgx-spark-benchmarks' 10-monday-peak runs, one DGX Spark (GB10)
    # under vLLM 0.26.0: Gemma 4 26B-A4B / 31B, gpt-oss-20b, Ministral 3, Nemotron 3 Nano, Qwen3.5 / 3.6 / 3.8 at BF16,
    # FP8 and NVFP4, vllm bench serve random 4k / 500 at 1.5/s capped at 25 in flight)
    ("SH(?=5[2-9]|6|7[0-3])", "  of which the rows added by sparkblind57 (ids SH52-SH73; blind figures in the "
     "validation README): throughput", "  of which the rows added by sparkblind57 (ids SH52-SH73): latency"),
    # the serveblind30 round (ids SH74..: the RTX 6000 Pro Blackwell Server Edition tables of TensorRT-LLM's late-2025
    # performance overview, the Y rows' source, which no row had entered: Llama 3.3 70B, Qwen3-235B-A22B and
    # Qwen3-30B-A3B NVFP4 on 1-8 PCIe cards at TP x PP and DEP x PP, trtllm-bench maximum load; SH95-SH98:
    # Light-Heart-Labs/MMBT's vLLM power sweep, Qwen3.6-27B and Qwen3-Coder-Next AWQ on one RTX PRO 6000 Workstation
    # at 1 and 32 closed-loop requests)
    ("SH(?=7[4-9]|8|9[0-8])", "  of which the rows added by serveblind30 (ids SH74-SH98; blind figures in the "
     "validation README): throughput", None),
    # the serveblind31 round (ids SH99-SH130: MLPerf Inference v6.0 Offline logs of submitter-system-benchmark runs
    # whose Offline log no row had cited, read from the same copy: ASUSTeK's, Dell's and HPE's 2 / 8 / 10 x RTX PRO 6000
    # Server Edition, partners' 8 x B300 / B200 (Llama 2 70B, Llama 3.1 8B / 405B, DeepSeek-R1), Dell's and Cisco's
    # H200 NVL, Cisco's MI350X and Dell's, GIGABYTE's and HPE's MI355X on AMD's vLLM harness, HPE's Mixtral 8x7B)
    ("SH(?=99\\b|1[0-2]\\d\\b|130\\b)", "  of which the rows added by serveblind31 (ids SH99-SH130: MLPerf Inference "
     "v6.0 Offline; blind figures in the validation README): throughput", None),
    # the serveblind32 round (ids SH131..: sglang #30812's GLM-5.1-FP8 on 8 x MI300X at concurrency 16-4096; three v6.0
    # Offline logs serveblind31 left free: Nebius's B300 DeepSeek-R1, Quanta's B300 405B, Oracle's MI355X)
    ("SH(?=13[1-9]\\b|14\\d\\b|15[0-2]\\b)", "  of which the rows added by serveblind32 (ids SH131-SH152; blind "
     "figures in the validation README): throughput",
     "  of which the rows added by serveblind32 (ids SH131-SH152): latency"),
    # the serveblind33 round (ids SH153..: the MLPerf v5.1 Offline twins of RT110..: Cisco's 8 x H200 SXM Llama 2 70B,
    # Google's DGX B200 on four benchmarks, ASUSTeK's 8 x MI325X and Dell's 8 x MI300X on AMD's vLLM harness; a second
    # pass: Dell's XE9680L H200, Lambda's and Lenovo's B200, GigaComputing's MI325X)
    ("SH(?=15[3-9]\\b|16\\d\\b|170\\b)", "  of which the rows added by serveblind33 (ids SH153-SH170; blind "
     "figures in the validation README): throughput", None),
    # the serveblind34 round (ids SL..: sglang #32323's Qwen3.5 cells at concurrency 1024 of the variants catalogued
    # since serveblind16, 0.8B / 2B / 4B / 122B-A10B on H100 / H200 / B200 / B300, SGLang 0.5.16, random 8k/1k; the
    # Gemma 4 31B BF16 cells of #31216 on one MI300X, SGLang 0.5.13.post1, 1k/1k at 16-4096)
    ("SL", "  of which the rows added by serveblind34 (ids SL..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind34 (ids SL..): latency"),
    # the serveblind35 round (ids SM..: Vultr's B200 inference cookbook, its Nemotron Nano 30B FP8 TP2 table under
    # vLLM 0.16.0, random 2048/512 at concurrency 8-400; serveblind8's VC rows took the same page's MiniMax table)
    ("SM", "  of which the rows added by serveblind35 (ids SM..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind35 (ids SM..): latency"),
    # the serveblind37 round (ids SO..: dstack's blog post on Llama 3.1 405B BF16 over 8 x MI300X and its data in
    # dstackai/benchmarks amd/inference, vLLM 0.6.3.dev116 on ROCm 6.1 with the release's defaults, bursts of 8-4,096
    # 80-token and 8-128 10,000-token prompts sent at once)
    # (bounded to SO01-SO15: serveblind40 took SO16..)
    ("SO(?=0\\d\\b|1[0-5]\\b)", "  of which the rows added by serveblind37 (ids SO01-SO15; blind figures in the "
     "validation README): throughput", "  of which the rows added by serveblind37 (ids SO01-SO15): latency"),
    # branch capacity56 (ids RT33..: MLPerf Inference v5.0 Offline logs of the systems whose Server runs are RT23..,
    # NVIDIA's 8 x H200 / DGX H100 / one GH200 / 8 x and one B200 llama2-70b, 8 x H200 / 8 x B200 Mixtral 8x7B, GB200
    # NVL72 Llama 3.1 405B; the figures were seen as capacity bounds before entry, scored on unchanged code first)
    ("RT(?=3[3-9]|4[0-5])", "  of which the rows added by capacity56 (ids RT33..: MLPerf Inference v5.0 Offline; "
     "figures on unchanged code in the validation README): throughput", None),
    # the serveblind38 round (ids ST01-ST07: MLPerf Inference v5.0 Offline logs of submitters no row had cited, read
    # from ntuhpc's copy: AMD's, ASUSTeK's and Supermicro's 8 x MI325X on AMD's vLLM 0.6.5 harness, ASUSTeK's
    # 8 x H200 SXM Llama 2 70B and Llama 3.1 405B, ASUSTeK's and Dell's 8 x H200 NVL on NVIDIA's harness; ST17-ST18:
    # btbtyler09/mi100-llm-testing, Qwen3-32B and Qwen3-30B-A3B BF16 on 4 x MI100, vLLM 0.8.5 at concurrency 5 / 16)
    # (bounded to ST01-ST19: serveblind39 took ST20..)
    ("ST(?=0\\d\\b|1\\d\\b)", "  of which the rows added by serveblind38 (ids ST01-ST07 MLPerf v5.0 Offline, ST17-ST18 "
     "4 x MI100; blind figures in the validation README): throughput", "  of which the rows added by serveblind38 (ids "
     "ST17-ST18): latency"),
    # the serveblind39 round (ids ST20-ST24: MLPerf Inference v5.0 Offline logs of Dell systems no row had cited, its
    # configs in the same copy: XE9680L 8 x H200 SXM Llama 2 70B and Mixtral 8x7B, XE7745 8 x L40S Llama 2 70B, XE9680
    # 8 x H100 SXM Llama 2 70B and Llama 3.1 405B; ST30-ST36: btbtyler09/mi100-llm-testing 'vLLM Concurrency.md',
    # Qwen3-32B GPTQ 4-bit on 4 x MI100, vLLM 0.9.1.dev at concurrency 1-100; ST37: Lenovo's 4 x H100 NVL Mixtral)
    ("ST(?=2[0-4]\\b|3[0-7]\\b)", "  of which the rows added by serveblind39 (ids ST20-ST24, ST37 MLPerf v5.0 Offline, "
     "ST30-ST36 4 x MI100 GPTQ; blind figures in the validation README): throughput", "  of which the rows added by "
     "serveblind39 (ids ST30-ST36): latency"),
    # the serveblind40 round (ids SO16..: MLPerf Inference v5.1 Offline logs no row had cited, read from
    # mlcommons/inference_results_v5.1 at 965182b0: DeepSeek-R1 on NVIDIA's GB200 and GB300 NVL72 racks (nine TP8
    # attention-DP EP8 copies each), Mixtral 8x7B on MiTAC's, Quanta's and Vultr's 8 x MI325X on AMD's vLLM harness;
    # SO21-SO39: Llama 3.1 8B on partners' 8 x B200 / RTX PRO 6000, Llama 2 70B on 8 x MI325X / H200 / B200)
    ("SO(?=1[6-9]\\b|[23]\\d\\b|40\\b)", "  of which the rows added by serveblind40 (ids SO16-SO39 MLPerf v5.1 "
     "Offline: DeepSeek-R1 on GB200 / GB300 NVL72, Mixtral 8x7B, Llama 3.1 8B, Llama 2 70B; blind figures in the "
     "validation README): throughput",
     None),
    # the serveblind41 round (ids SX01-SX20, a new prefix: no bare "S" pattern matches it, each pattern wanting a digit
    # after its letters: MLPerf Inference v5.1 Offline logs no row had cited, the same copy: Llama 2 70B on Nebius's
    # GB200 x 4, the virtualised 8 x H200, HPE's 8 x RTX PRO 6000 and Supermicro's 8 x B200; Llama 3.1 405B on nine
    # partners' 8 x B200, the virtualised 8 x H200 and NVIDIA's GB200 / GB300 NVL72 racks)
    ("SX(?=0[1-9]\\b|1\\d\\b|20\\b)", "  of which the rows added by serveblind41 (ids SX01-SX16 MLPerf v5.1 "
     "Offline: Llama 2 70B, Llama 3.1 405B; blind figures in the validation README): throughput",
     None),
    # the serveblind42 round (ids SA01-SA30, a new prefix: no bare "S" pattern matches it, each pattern wanting a digit
    # after its letters: MLPerf Inference v6.0 Offline logs no row had cited, read from gbeezybez/inference_results_v6.0
    # at ab33b214: DeepSeek-R1 on CoreWeave's 64 x GB200 and 8 x GB300, Google's GB200 NVL72, NVIDIA's four GB300 NVL72
    # racks, Nebius's GB300 NVL72 and 8 x GB300; Mixtral 8x7B on HPE's 8 x B200)
    # (bounded to SA01-SA07: serveblind43 took SA08..)
    ("SA(?=0[1-7]\\b)", "  of which the rows added by serveblind42 (ids SA01-SA07 MLPerf v6.0 "
     "Offline: DeepSeek-R1 on GB200 / GB300 racks and trays, Mixtral 8x7B on 8 x B200; blind figures in the validation "
     "README): throughput",
     None),
    # the serveblind43 round (ids SA08-SA14: 2025-26 non-MLPerf sources at a stated concurrency: the SGLang cookbook's
    # DeepSeek-V3.1 on 8 x MI300X, SGLang 0.5.7, 1k/1k, 1k/8k and 8k/1k at 16-100 clients; the vLLM recipe's
    # Qwen3-Next-80B-A3B on 4 x B200 at 256 clients) (bounded to SA08-SA14: decodeblind40 took SA15..)
    ("SA(?=0[89]\\b|1[0-4]\\b)", "  of which the rows added by serveblind43 (ids SA08-SA14: SGLang cookbook "
     "DeepSeek-V3.1 on 8 x MI300X, vLLM recipe Qwen3-Next on 4 x B200; blind figures in the validation README): "
     "throughput",
     "  of which the rows added by serveblind43 (ids SA08-SA14): latency"),
    # the decodeblind40 round (ids SA15-SA30: 0xSero/local-ai-registry's RunPod speed sweeps at 130,048 tokens of prompt
    # and 512 out under SGLang: Qwen3.8-27B FP8 and Ornith-1.5-35B-A3B BF16 on one MI300X (the 0.5.18 ROCm dev image),
    # NVFP4 of both on one RTX PRO 6000 Server; each sweep's cold arm at concurrency 1 and its warm (prefix-cached) arm
    # at 2 and 4)
    ("SA(?=1[5-9]\\b|2\\d\\b|30\\b)", "  of which the rows added by decodeblind40 (ids SA15-SA26: local-ai-registry "
     "sweeps at 128K, SGLang on MI300X / RTX PRO 6000 Server; blind figures in the validation README): throughput",
     "  of which the rows added by decodeblind40 (ids SA15-SA26): latency"),
    # the serveblind45 round (ids SI01-SI20, a new prefix: no pattern above matches it, each wanting a digit after its
    # letters: the SGLang cookbook's speed runs at 16-100 clients of pages no serving row had cited, sgl-project/
    # sgl-cookbook: GLM-4.6 BF16 on 8 x B200 (SGLang 0.5.6.post1), GLM-4.7-Flash BF16 on one B200 with the Triton
    # attention backend (0.5.7), Qwen3-Coder-Next BF16 on 2 x B200 (0.5.8))
    ("SI(?=0[1-9]\\b|1\\d\\b|20\\b)", "  of which the rows added by serveblind45 (ids SI01-SI18: SGLang cookbook "
     "GLM-4.6 on 8 x B200, GLM-4.7-Flash on one B200, Qwen3-Coder-Next on 2 x B200; blind figures in the validation "
     "README): throughput",
     "  of which the rows added by serveblind45 (ids SI01-SI18): latency"),
    # the serveblind46 round (ids SC01-SC20, a new prefix: no pattern above matches it, each wanting a digit after its
    # letters: TheTom/atlas's single-H100 rental report, the vLLM 0.28.0 control, Qwen3.8-27B FP8 on one H100 at C1
    # and in one wave of 16, latency 1,193/256 and agent 4,593/512)
    ("SC(?=0[1-9]\\b|1\\d\\b|20\\b)", "  of which the rows added by serveblind46 (ids SC01-SC04: vLLM 0.28.0 "
     "Qwen3.8-27B FP8 on one H100 at C1 / C16, TheTom/atlas; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind46 (ids SC01-SC04): latency"),
)

#: The blind rounds of rows at a stated request rate (serving_rate.csv), reported on their own as SERVING_ROUNDS are:
#: the id prefix and the throughput line's label.
RATE_ROUNDS: tuple[tuple[str, str], ...] = (
    # the serveblind10 round (ids GH..: SGLang's attention-backend benchmark file NVIDIA_H200.md, DeepSeek-V3 FP8 on
    # 8 x H200 and Llama 3.1 8B on one H200, bench_serving at 16 requests/s over 200 and 1,000 prompts, random
    # 1k/1k, 8k/1k and 8k/8k)
    ("GH", "  of which the rows added by serveblind10 (ids GH..; blind figures in the validation README): throughput"),
    # the serveblind20 round (ids RP..: MLPerf Inference v6.1 DeepSeek-R1 Server on NVIDIA's 8 x B300; GPUStack's
    # Qwen3.5-9B page, guidellm at a constant 1 request/s, 32k/100 and 1k/2k, vLLM 0.17.1 on one H100)
    ("RP", "  of which the rows added by serveblind20 (ids RP..; blind figures in the validation README): throughput"),
    # the serveblind24 round (ids RT..: the same submitters' DeepSeek-R1 Server logs, loadgen's Poisson arrivals;
    # GPUStack's Qwen3.5-35B-A3B on one H200, guidellm at a constant 1-16 requests/s, vLLM 0.17.1 and SGLang 0.5.9)
    # (each id bounded: RT1.. alone also took RT100-RT119 into this line)
    ("RT(?=0\\d\\b|1[0-4]\\b)", "  of which the rows added by serveblind24 (ids RT01-RT14; blind figures in the "
     "validation README): throughput"),
    # the serveblind26 round (ids RT15..: MLPerf Inference v6.0 Server and Interactive logs no row cited before: AMD's
    # 8 and 87 x MI355X llama2-70b Interactive / Server, ASUSTeK's 8 x RTX PRO 6000 and HPE's 8 x B200 llama2-70b
    # Interactive, HPE's 8 x B200 Mixtral 8x7B Server, CoreWeave's DeepSeek-R1 Server on 8 x GB300 and 64 x GB200)
    ("RT(?=1[5-9]|2[0-2])", "  of which the rows added by serveblind26 (ids RT15-RT22; blind figures in the validation "
     "README): throughput"),
    # the serveblind27 round (ids RT23..: MLPerf Inference v5.0 Server logs, the round no row cited, read from
    # ntuhpc's copy: NVIDIA's 8 x H200 / 8 x B200 / DGX H100 / one B200 / one GH200 llama2-70b (Server and the
    # Interactive targets), 8 x H200 / 8 x B200 Mixtral 8x7B, GB200 NVL72 Llama 3.1 405B over 72 GPUs)
    ("RT(?=2[3-9]|3[0-2])", "  of which the rows added by serveblind27 (ids RT23-RT32; blind figures in the validation "
     "README): throughput"),
    # the serveblind29 round (ids RT41..: MLPerf Inference v6.0 Server logs of systems no row cited, read from the same
    # copy: partners' B300 / B200 Llama 2 70B, Llama 3.1 8B / 405B and DeepSeek-R1 runs of NVIDIA's harness, HPE's two
    # RTX PRO 6000 Server Edition (Llama 2 70B, Llama 3.1 8B, Mixtral 8x7B), Dell's eight, Dell's 8 x H200 NVL, Dell's
    # and HPE's 8 x MI355X and Cisco's 8 x MI350X on AMD's vLLM harness)
    ("RT(?=4[1-9]|5|60)", "  of which the rows added by serveblind29 (ids RT41-RT60; blind figures in the validation "
     "README): throughput"),
    # the sparkrate57 round (ids RT61..: djangodevreng/dgx-spark-benchmarks' Poisson tests with no binding cap, one DGX
    # Spark (GB10) under vLLM 0.26.0: 09-reasoning, random 1k / 4k, 50 prompts at 0.2/s, of 19 checkpoints, and
    # Qwen3.5-0.8B's 10-monday-peak, 300 prompts at 1.5/s, whose cap of 25 never bound)
    ("RT(?=6[1-9]|7|80)", "  of which the rows added by sparkrate57 (ids RT61-RT80; blind figures in the validation "
     "README): throughput"),
    # the decodeblind26 round (ids RT81..: MLPerf Inference v6.0 Server logs no row had cited, read from the same copy:
    # ASUSTeK's, Dell's and HPE's 8 / 10 x RTX PRO 6000 Server Edition, Cisco's 4 x H200 NVL and 8 x B300, GIGABYTE's
    # B300, GIGABYTE's and Oracle's 8 x MI355X on AMD's vLLM harness)
    ("RT(?=8[1-9]\\b|9[0-5]\\b)", "  of which the rows added by decodeblind26 (ids RT81-RT95; blind figures in the "
     "validation README): throughput"),
    # serveblind32 (ids RT96..: MLPerf v5.1 Server logs of submitter systems no row had cited, NVIDIA's harness)
    ("RT(?=9[6-9]\\b|10\\d\\b)", "  of which the rows added by serveblind32 (ids RT96-RT109; blind "
     "figures in the validation README): throughput"),
    # serveblind33 (ids RT110..: the next such v5.1 Server logs, NVIDIA's harness and AMD's vLLM harness)
    ("RT(?=11\\d\\b|120\\b)", "  of which the rows added by serveblind33 (ids RT110-RT120; blind "
     "figures in the validation README): throughput"),
    # serveblind34 (ids RV..: every uncited v5.1 partner Server log on NVIDIA's harness, 8 x B200 / H200 SXM, Llama 2
    # 70B, Llama 3.1 8B and 405B: Dell, GigaComputing, HPE, Lenovo, Nebius, Oracle, Quanta and Supermicro systems)
    ("RV", "  of which the rows added by serveblind34 (ids RV..; blind figures in the validation README): throughput"),
    # serveblind37 (ids RX..: the same dstack data's Poisson runs, 300-1,500 ~918-token prompts at 1-5 requests/s;
    # the vLLM blog's 'Serving LLMs on AMD MI300X: Best Practices', served requests/s at 16 and 1,000 QPS, vLLM 0.6.2)
    # (bounded to RX01-RX07: serveblind40 took RX08..)
    ("RX(?=0[1-7]\\b)", "  of which the rows added by serveblind37 (ids RX01-RX07; blind figures in the validation "
     "README): throughput"),
    # serveblind36 (ids RW..: surajssd/llm-k8s's vLLM 0.8.3 upstream serving suite on Azure ND96asr_v4, Llama 3.3 70B
    # BF16 on 8 x A100-SXM4-40GB, TP 8 on one node and TP 4 PP 2 over two, ShareGPT 200 prompts at 1, 4 and 16/s)
    # (bounded to RW01-RW12: serveblind43 took RW13..)
    ("RW(?=0\\d\\b|1[0-2]\\b)", "  of which the rows added by serveblind36 (ids RW01-RW12; blind figures in the "
     "validation README): throughput"),
    # serveblind38 (ids ST08-ST16: the same submitters' v5.0 Server logs, loadgen's Poisson arrivals: the three MI325X
    # systems on AMD's vLLM harness, ASUSTeK's 8 x H200 SXM Llama 2 70B (Server and Interactive) and Llama 3.1 405B,
    # ASUSTeK's and Dell's 8 x H200 NVL Llama 2 70B, Dell's Interactive; ST19: Qwen3-32B BF16 on 4 x MI100 at 0.5/s)
    # (bounded to ST01-ST19: serveblind39 took ST20..)
    ("ST(?=0\\d\\b|1\\d\\b)", "  of which the rows added by serveblind38 (ids ST08-ST16 MLPerf v5.0 Server, ST19 "
     "4 x MI100; blind figures in the validation README): throughput"),
    # serveblind39 (ids ST25-ST29: the same Dell systems' v5.0 Server logs, loadgen's Poisson arrivals; ST38: Lenovo's
    # 4 x H100 NVL Mixtral Server)
    ("ST(?=2[5-9]\\b|38\\b)", "  of which the rows added by serveblind39 (ids ST25-ST29, ST38 MLPerf v5.0 Server; "
     "blind figures in the validation README): throughput"),
    # serveblind40 (ids RX08-RX20: MLPerf Inference v5.1 Server and Interactive logs no row had cited, loadgen's Poisson
    # arrivals: DeepSeek-R1 on the GB200 / GB300 NVL72 racks, Mixtral 8x7B on four partners' 8 x MI325X, llama2-70b-99
    # Interactive on AMD's harness (MI300X / MI325X) and on NVIDIA's (Dell's, Google's and Nebius's 8 x H200))
    ("RX(?=0[89]\\b|1\\d\\b|20\\b)", "  of which the rows added by serveblind40 (ids RX08-RX20 MLPerf v5.1 Server / "
     "Interactive; blind figures in the validation README): throughput"),
    # serveblind41 (ids RY01-RY20, a new prefix: MLPerf Inference v5.1 llama2-70b-99 Interactive and Server logs no row
    # had cited: NVIDIA's harness on 8 x B200, GB200 x 4, H200 NVL, HPE's 8 x H200 and RTX PRO 6000, the virtualised
    # 8 x H200; AMD's on Vultr's, GigaComputing's, MiTAC's and Quanta's 8 x MI325X and Dell's 8 x MI300X)
    ("RY(?=0[1-9]\\b|1\\d\\b|20\\b)", "  of which the rows added by serveblind41 (ids RY01-RY20 MLPerf v5.1 "
     "Interactive / Server; blind figures in the validation README): throughput"),
    # serveblind42 (ids RZ01-RZ30, a new prefix: no bare "R" pattern matches it: MLPerf Inference v6.0 DeepSeek-R1
    # Server logs no row had cited (Dell's 8 x B300, Google's GB200 NVL72, NVIDIA's four GB300 NVL72 racks, Nebius's
    # GB300 NVL72 and 8 x GB300) and two Llama 3.1 405B logs on 8 x B300 (Quanta's Server, GigaComputing's
    # Interactive); v5.1 llama3.1-405b Interactive logs of ten partners' 8 x B200, Nebius's 8 x H200 and NVIDIA's
    # GB200 NVL72; v6.0 llama3.1-8b Interactive logs of 2 / 8 / 10 x RTX PRO 6000, 8 x B200 and 8 x B300)
    ("RZ(?=0[1-9]\\b|[12]\\d\\b|30\\b)", "  of which the rows added by serveblind42 (ids RZ01-RZ26 MLPerf v6.0 "
     "Server / Interactive and v5.1 Interactive; blind figures in the validation README): throughput"),
    # serveblind43 (ids RW13-RW17: GPUStack's Qwen3.5-9B latency page, one H100, guidellm at a constant 1, 4, 8 and
    # 16 requests/s over 1,000 ShareGPT requests, vLLM 0.17.1, and SGLang 0.5.9 at 8/s)
    # (bounded to RW13-RW17: serveblind44 took RW18..)
    ("RW(?=1[3-7]\\b)", "  of which the rows added by serveblind43 (ids RW13-RW17 GPUStack Qwen3.5-9B "
     "on one H100 at a constant 1-16/s; blind figures in the validation README): throughput"),
    # serveblind44 (ids RW18-RW30: ovg-project/kvcached's overhead benchmark, its 'without kvcached' runs: Llama 3.2 3B
    # BF16 on one A100 80GB under SGLang 0.4.6.post2, sglang.bench_serving random 1913/162 at 8, 16 and 32 requests/s)
    ("RW(?=1[89]\\b|2\\d\\b|30\\b)", "  of which the rows added by serveblind44 (ids RW18-RW20 Llama 3.2 3B on one "
     "A100 under SGLang 0.4.6.post2 at 8-32/s; blind figures in the validation README): throughput"),
)
