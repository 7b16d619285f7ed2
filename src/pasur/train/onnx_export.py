"""The ``net`` bot's network as an ONNX model, for runtimes other than NumPy (onnxruntime, a
browser's, a phone's): input ``features`` (moves × `FEATURE_COUNT` float32,
the rows `move_features()` gives), output ``scores`` (one a move)."""

from __future__ import annotations

import json

import numpy as np

from ..bots.net import FEATURE_COUNT, FEATURES_VERSION, Network
from ..core.errors import MissingExtra

try:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError as missing:
    raise MissingExtra(f"python -m pasur.train onnx ({missing.name})", "train") from None

#: The ONNX operator set used, and the IR version: old enough for every current runtime.
OPSET = 17
IR_VERSION = 8


def to_onnx(network: Network) -> onnx.ModelProto:
    """The network as a checked ONNX model: MatMul, Add and Relu, layer by layer, as
    `Network.scores()` computes it; the features version and the weights' metadata in its
    properties."""
    weights = [numpy_helper.from_array(array, name) for name, array in zip(Network.LAYERS, network.layers, strict=True)]
    weights.append(numpy_helper.from_array(np.array([1], np.int64), "last_axis"))
    nodes, current = [], "features"
    for layer in (1, 2, 3):
        nodes += [
            helper.make_node("MatMul", [current, f"w{layer}"], [f"product{layer}"]),
            helper.make_node("Add", [f"product{layer}", f"b{layer}"], [f"sum{layer}"]),
        ]
        current = f"sum{layer}"
        if layer < 3:
            nodes.append(helper.make_node("Relu", [current], [f"hidden{layer}"]))
            current = f"hidden{layer}"
    nodes.append(helper.make_node("Squeeze", [current, "last_axis"], ["scores"]))
    graph = helper.make_graph(
        nodes,
        "pasur-net",
        [helper.make_tensor_value_info("features", TensorProto.FLOAT, ["moves", FEATURE_COUNT])],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["moves"])],
        weights,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="pasur")
    model.ir_version = IR_VERSION
    helper.set_model_props(model, {"features": str(FEATURES_VERSION), "meta": json.dumps(network.meta)})
    onnx.checker.check_model(model, full_check=True)
    return model
