"""``OpenAIEmbedder`` through the real ``openai`` client, against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import math

from ragmetrics_edu import metrics
from ragmetrics_edu.embeddings import OpenAIEmbedder
from scripted_server import Scripted, ScriptedServer


def embeddings_reply(vectors: list[list[float]], model: str) -> Scripted:
    """A 200 reply of the embeddings endpoint carrying ``vectors``, in order."""
    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
    return Scripted(body=json.dumps({"object": "list", "data": data, "model": model,
                                     "usage": {"prompt_tokens": 4, "total_tokens": 4}}))


def test_embed_sends_the_model_and_the_texts_and_returns_the_vectors_in_order(server: ScriptedServer) -> None:
    server.push(embeddings_reply([[1.0, 0.0], [0.6, 0.8]], "emb-test"))
    embedder = OpenAIEmbedder("emb-test", base_url=server.base_url, api_key="k")
    assert embedder.embed(["first text", "second text"]) == [[1.0, 0.0], [0.6, 0.8]]
    assert server.paths == ["/v1/embeddings"]
    assert server.requests[0]["model"] == "emb-test" and server.requests[0]["input"] == ["first text", "second text"]
    assert embedder.name == "openai:emb-test"


def test_a_metric_scores_with_the_served_vectors(server: ScriptedServer) -> None:
    server.push(embeddings_reply([[1.0, 0.0], [0.6, 0.8]], "emb-test"))
    embedder = OpenAIEmbedder("emb-test", base_url=server.base_url, api_key="k")
    result = metrics.semantic_similarity("an answer", "the ground truth", embedder)
    assert math.isclose(result.score, 0.6) and server.hits == 1
