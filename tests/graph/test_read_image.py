"""read_image inside a run: a configured vision model reads the image, else local OCR."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image
from scripted import ScriptedChatModel, call, reply

from labscribe.graph import Context, Models, run_folder

FINISH = call("finish_exploration", experiment="x", goal="y", key_findings=["z"])


def run_with(folder: Path, tmp_path: Path, vision: ScriptedChatModel | None) -> list[dict]:
    explorer = ScriptedChatModel(
        replies=[reply(call("read_image", path="scope.png")), reply(FINISH)]
    )
    writer = ScriptedChatModel(replies=[reply(content="x")])
    models = Models(explore=explorer, write=writer, vision=vision)
    context = Context(models=models, reflect=0, compile=False, figures=False)
    result = run_folder(folder, out=tmp_path / "out", context=context)
    history = json.loads((result.out / "history.json").read_text())
    return [m["data"] for m in history if m["type"] == "tool"]


def test_read_image_goes_to_the_configured_vision_model(data: Path, tmp_path: Path) -> None:
    Image.new("RGB", (64, 48), "white").save(data / "scope.png")
    vision = ScriptedChatModel(replies=[reply(content="Oscilloscope: f = 5.07 kHz")])
    results = run_with(data, tmp_path, vision)
    assert "Oscilloscope: f = 5.07 kHz" in results[0]["content"]
    sent = vision.requests[0][-1].content
    assert sent[1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_read_image_without_a_vision_model_runs_ocr(data: Path, tmp_path: Path) -> None:
    Image.new("RGB", (64, 48), "white").save(data / "scope.png")
    results = run_with(data, tmp_path, None)
    assert results[0]["status"] == "success"
    assert "OCR rapidocr" in results[0]["content"].splitlines()[0]
