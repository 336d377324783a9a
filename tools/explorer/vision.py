"""A vision-capable chat model reading an image for read_image, instead of OCR.

OCR reads printed text only; a vision model also reads curves, markers and handwriting. The
run gives its folder a `VisionReader` when one is configured, and read_image falls back to
OCR whenever the call fails or answers with nothing.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.messages import HumanMessage

from labscribe.tools.explorer.pictures import Picture
from labscribe.tools.messages import VISION_PROMPT

Vision = Callable[[bytes, str], str]
"""A vision reader: (image bytes, MIME type) -> the model's text about the image."""


class ChatModel(Protocol):
    """What `describe_with_vision` needs of a chat model: LangChain's `invoke`."""

    def invoke(self, input: Any, /) -> Any: ...


@dataclass(frozen=True)
class VisionReader:
    """A vision-capable chat model reading images for read_image, known by its name."""

    name: str
    model: ChatModel

    def __call__(self, image_bytes: bytes, mime: str) -> str:
        return describe_with_vision(self.model, image_bytes, mime)


def describe_with_vision(
    model: ChatModel, image_bytes: bytes, mime: str, prompt: str = VISION_PROMPT
) -> str:
    """Ask a vision-capable chat model what `image_bytes` shows; its reply's text.

    The image goes as an OpenAI-style `image_url` content part holding a base64 data URL,
    which OpenAI-compatible endpoints accept through LangChain. Errors from the model are
    the caller's to handle (read_image falls back to OCR).
    """
    url = f"data:{mime};base64,{base64.b64encode(image_bytes).decode('ascii')}"
    message = HumanMessage(
        content=[
            {"type": "text", "text": prompt},
            {"type": "image_url", "image_url": {"url": url}},
        ]
    )
    return str(model.invoke([message]).text)


def encode_picture(picture: Picture) -> tuple[bytes, str]:
    """The downscaled image as file bytes and their MIME type, for a vision model.

    JPEG sources stay JPEG (already lossy, and a photo as PNG is several times larger);
    everything else becomes PNG so thin plot lines and small digits stay sharp.
    """
    buffer = io.BytesIO()
    if picture.format == "JPEG":
        picture.image.save(buffer, format="JPEG", quality=90)
        return buffer.getvalue(), "image/jpeg"
    picture.image.save(buffer, format="PNG")
    return buffer.getvalue(), "image/png"
