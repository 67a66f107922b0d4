"""review59: the questionnaire and the listings used as a new user would (tests/data/validation/README.md,
branch review59). Each test failed on the base (3fc43a5a)."""

from __future__ import annotations

from pathlib import Path

from tests.clirun import gpuwise


def test_ask_refuses_a_report_suffix_without_naming_an_option_it_lacks(tmp_path: Path) -> None:
    # `gpuwise ask -o report.pdf` said '(name the file .md, .html, .json or .txt, or give --format)': ask has
    # no --format (`gpuwise ask --format md` is 'unrecognized arguments'), so the hint sent the user nowhere
    for lang, suffix_word in (("en", "name the file .md, .html, .json or .txt"), ("zh", "请把文件命名为")):
        r = gpuwise("ask", "--answers", "a.yaml", "-o", "report.pdf", "--lang", lang, cwd=tmp_path)
        assert r.returncode == 2
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert suffix_word in r.stderr and "--format" not in r.stderr, r.stderr
        assert not (tmp_path / "a.yaml").exists()
    assert "--format" in gpuwise("ask", "--format", "md", cwd=tmp_path).stderr  # the option really is refused
    # recommend has --format: its hint still names it
    r = gpuwise("recommend", str(Path(__file__).parents[1] / "examples" / "lora-70b.yaml"), "-o", "r.pdf",
                cwd=tmp_path)
    assert r.returncode == 2 and "or give --format" in r.stderr
