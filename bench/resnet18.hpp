// A ResNet-18-shaped NNL model for oracle_bench: the layers of torchvision's resnet18 (He et al.
// 2016) in NNL terms, at an input size of one's choice.
#pragma once

#include <cstdint>
#include <string>

namespace nnref::bench {

// NNL text of ResNet-18 on an [size, size, 3] input: the stem conv 7x7/2 ("same") with BatchNorm
// and ReLU, MaxPool2D 3x3/2 (NNL pools never pad, so 56 → 27 at size 112), four stages of two
// basic blocks (conv 3x3, BatchNorm, ReLU, conv 3x3, BatchNorm, Add, ReLU) with 64, 128, 256 and
// 512 channels, the first block of stages 2 to 4 downsampling by a stride-2 conv and a 1x1/2
// projection conv with BatchNorm on the skip path, global average pooling by AvgPool2D over the
// last extent, Flatten and Dense(units: 1000). Every Conv2D has a bias (NNL's always does).
// Weights are read from "./weights" next to the model file. size ≥ 5 (the pool needs 3x3).
std::string resnet18_nnl(int64_t size);

}  // namespace nnref::bench
