// The standard fragments of NNEF 1.0.4 §4 (rev 1), as the specification prints them: the
// declarations of the primitives and the definitions of the compound fragments of §4.9 (and of
// §4.2.4, §4.3.4 and §4.4 where they are compounds). Copied from the text with three fixes: `;`
// after each declaration without a body (the grammar needs it between fragments), `debbox` read
// as `debox` (nearest_upsample calls `debox`), and argmax_pool's `input: tensor` read as
// `tensor<scalar>` (the grammar has no bare `tensor`). Which of them nnref maps to an IR op and
// which it expands from these bodies: formats/nnef/lower_ops.cpp and docs/nnef.md.
#include "formats/nnef/standard_fragments.hpp"

namespace nnref::nnef {

std::string_view standard_fragments_text() {
  return R"nnef(fragment external<? = scalar>(
    shape: integer[] )      # the shape of the tensor
-> ( output: tensor<?> );

fragment constant<? = scalar>(
    shape: integer[],      # the shape of the tensor
    value: ?[] )           # the values to fill the tensor with
-> ( output: tensor<?> );

fragment variable<? = scalar>(
    shape: integer[],          # the shape of the tensor
    label: string )           # a label for referencing the tensor externally
-> ( output: tensor<?> );

fragment copy<?>( x: tensor<?> ) -> ( y: tensor<?> );

fragment neg( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment rcp( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment exp( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment log( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment sin( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment cos( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment tan( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment sinh( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment cosh( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment tanh( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment asin( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment acos( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment atan( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment asinh( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment acosh( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment atanh( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment abs( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment sign( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment not( x: tensor<logical> ) -> ( y: tensor<logical> );

fragment floor( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment ceil ( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment round( x: tensor<scalar> ) -> ( y: tensor<scalar> );

fragment add( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<scalar> );

fragment sub( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<scalar> );

fragment mul( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<scalar> );

fragment div( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<scalar> );

fragment pow( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<scalar> );

fragment lt( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<logical> );

fragment gt( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<logical> );

fragment le( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<logical> );

fragment ge( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<logical> );

fragment eq( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<logical> );

fragment ne( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<logical> );

fragment and( x: tensor<logical>, y: tensor<logical> ) -> ( z: tensor<logical> );

fragment or ( x: tensor<logical>, y: tensor<logical> ) -> ( z: tensor<logical> );

fragment select<?>(
    condition: tensor<logical>,      # the condition for selecting the result
    true_value: tensor<?>,          # the result when the condition is true
    false_value: tensor<?> )        # the result when the condition is false
-> ( output: tensor<?> );

fragment sqr( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    y = pow(x, 2.0);
}

fragment sqrt( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    y = pow(x, 0.5);
}

fragment rsqr( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    y = pow(x, -2.0);
}

fragment rsqrt( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    y = pow(x, -0.5);
}

fragment log2( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    y = log(x) / log(2.0);
}

fragment min( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<scalar> )
{
    z = select(x < y, x, y);
}

fragment max( x: tensor<scalar>, y: tensor<scalar> ) -> ( z: tensor<scalar> )
{
    z = select(x > y, x, y);
}

fragment clamp( x: tensor<scalar>, a: tensor<scalar>, b: tensor<scalar> )
-> ( y: tensor<scalar> )
{
    y = max(min(x, b), a);
}

fragment conv(
  input: tensor<scalar>,
  filter: tensor<scalar>,           # the filter that the input is convolved with
  bias: tensor<scalar> = 0.0,       # the bias that is added to the output
  border: string = 'constant',
  padding: (integer,integer)[] = [],
  stride: integer[] = [],
  dilation: integer[] = [],
  groups: integer = 1 )             # the number of convolution groups
-> ( output: tensor<scalar> );

fragment deconv(
  input: tensor<scalar>,
  filter: tensor<scalar>,
  bias: tensor<scalar> = 0.0,
  border: string = 'constant',
  padding: (integer,integer)[] = [],
  stride: integer[] = [],
  dilation: integer[] = [],
  output_shape: integer[] = [],
  groups: integer = 1 )
-> ( output: tensor<scalar> );

fragment box(
    input: tensor<scalar>,
    size: integer[],
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [],
    normalize: logical = false )      # whether to normalize by the kernel volume
-> ( output: tensor<scalar> );

fragment debox(
    input: tensor<scalar>,
    size: integer[],
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [],
    output_shape: integer[] = [],
    normalize: logical = false )
-> ( output: tensor<scalar> );

fragment argmax_pool(
    input: tensor<scalar>,
    size: integer[],
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [] )
-> ( index: tensor<integer> );           # the positions where the maxima are found

fragment sample(
    input: tensor<scalar>,
    index: tensor<integer>,          # the positions where values are sampled from
    size: integer[],
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [] )
-> ( output: tensor<scalar> );

fragment desample(
    input: tensor<scalar>,
    index: tensor<integer>,          # the positions where values are sampled to
    size: integer[],
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [],
    output_shape: integer[] = [] )
-> ( output: tensor<scalar> );

fragment nearest_downsample( input: tensor<scalar>, factor: integer[] )
-> ( output: tensor<scalar> )
{
    dims = 2 + length_of(factor);      # +2 for batch and channel dimensions
    output = box(input, size = [1] * dims, stride = [1,1] + factor,
                  padding = [(0,0)] * dims);
}

fragment area_downsample( input: tensor<scalar>, factor: integer[] )
-> ( output: tensor<scalar> )
{
    dims = 2 + length_of(factor);      # +2 for batch and channel dimensions
    output = box(input, size = [1,1] + factor, stride = [1,1] + factor,
                  padding = [(0,0)] * dims, normalize = true);
}

fragment nearest_upsample( input: tensor<scalar>, factor: integer[] )
-> ( output: tensor<scalar> )
{
    dims = 2 + length_of(factor);      # +2 for batch and channel dimensions
    output = debox(input, size = [1,1] + factor, stride = [1,1] + factor,
                   padding = [(0,0)] * dims);
}

fragment multilinear_upsample(
    input: tensor<scalar>,          # the tensor to up-sample
    factor: integer[],              # the up-sampling factor
    method: string = 'symmetric',   # the linear interpolation method to use
    border: string = 'replicate' )
-> ( output: tensor<scalar> );      # the up-sampled tensor

fragment _linear_upsample2x_symmetric( input: tensor<scalar>, border: string )
-> ( output: tensor<scalar> )
{
    channels = shape_of(input)[1];
    filter = constant(shape = [channels, 1, 4],
                      value = [0.25, 0.75, 0.75, 0.25] * channels);
    output = deconv(input, filter, stride = [2], padding = [(1,1)],
                    border = border, groups = channels);
}

fragment _linear_upsample2x_asymmetric( input: tensor<scalar>, border: string )
-> ( output: tensor<scalar> )
{
    channels = shape_of(input)[1];
    filter = constant(shape = [channels, 1, 3],
                      value = [0.5, 1.0, 0.5] * channels);
    output = deconv(input, filter, stride = [2], padding = [(0,1)],
                    border = border, groups = channels);
}

fragment _bilinear_upsample2x_symmetric( input: tensor<scalar>, border: string )
-> ( output: tensor<scalar> )
{
    channels = shape_of(input)[1];
    weights = [0.0625, 0.1875, 0.1875, 0.0625,
               0.1875, 0.5625, 0.5625, 0.1875,
               0.1875, 0.5625, 0.5625, 0.1875,
               0.0625, 0.1875, 0.1875, 0.0625];
    filter = constant(shape = [channels, 1, 4, 4], value = weights * channels);
    output = deconv(input, filter, stride = [2,2], padding = [(1,1), (1,1)],
                    border = border, groups = channels);
}

fragment _bilinear_upsample2x_asymmetric( input: tensor<scalar>, border: string )
-> ( output: tensor<scalar> )
{
    channels = shape_of(input)[1];
    weights = [0.25, 0.5, 0.25,
               0.50, 1.0, 0.50,
               0.25, 0.5, 0.25];
    filter = constant(shape = [channels, 1, 3, 3], value = weights * channels);
    output = deconv(input, filter, stride = [2,2], padding = [(0,1), (0,1)],
                    border = border, groups = channels);
}

fragment sum_reduce(
    input: tensor<scalar>,      # the tensor to be reduced
    axes: integer[],            # the axes along which to reduce
    normalize: logical = false) # whether to normalize with the reduction volume
-> ( output: tensor<scalar> );    # the reduced tensor

fragment max_reduce(
    input: tensor<scalar>,
    axes: integer[] )
-> ( output: tensor<scalar> );

fragment min_reduce(
    input: tensor<scalar>,
    axes: integer[] )
-> ( output: tensor<scalar> );

fragment argmax_reduce(
    input: tensor<scalar>,
    axes: integer[] )
-> ( output: tensor<integer> );

fragment argmin_reduce(
    input: tensor<scalar>,
    axes: integer[] )
-> ( output: tensor<integer> );

fragment all_reduce(
    input: tensor<logical>,
    axes: integer[] )
-> ( output: tensor<logical> );

fragment any_reduce(
    input: tensor<logical>,
    axes: integer[] )
-> ( output: tensor<logical> );

fragment mean_reduce( input: tensor<scalar>, axes: integer[] )
-> ( output: tensor<scalar> )
{
    output = sum_reduce(input, axes = axes, normalize = true);
}

fragment reshape<?>(
    input: tensor<?>,          # the tensor to be reshaped
    shape: integer[],           # the new shape
    axis_start: integer = 0,     # the first axis to be affected
    axis_count: integer = -1 )   # the number of axes to be affected
-> ( output: tensor<?> );       # the reshaped tensor

fragment squeeze<?>( input: tensor<?>, axes: integer[] ) -> ( output: tensor<?> );

fragment unsqueeze<?>( input: tensor<?>, axes: integer[] ) -> ( output: tensor<?> );

fragment transpose<?>(
    input: tensor<?>,          # the tensor to be transposed
    axes: integer[] )          # the resulting order of axes
-> ( output: tensor<?> );      # the transposed tensor

fragment split<?>(
  value: tensor<?>,           # the tensor holding the data in one piece
  axis: integer,               # the dimension along which to split
  ratios: integer[] )         # the ratios of the chunks along the split axis
-> ( values: tensor<?>[] );    # the list of tensors holding the data in chunks

fragment concat<?>(
  values: tensor<?>[],        # the list of tensors holding the data in chunks
  axis: integer )              # the dimension along which to concatenate
-> ( value: tensor<?> );       # the tensor holding the data in one piece

fragment stack<?>( values: tensor<?>[], axis: integer ) -> ( value: tensor<?> );

fragment unstack<?>( value: tensor<?>, axis: integer ) -> ( values: tensor<?>[] );

fragment slice<?>(
    input: tensor<?>,          # the tensor to be sliced
    axes: integer[],           # axes along which to slice
    begin: integer[],          # beginning of slice along each axis
    end: integer[],            # end of slice along each axis
    stride: integer[] = [] )   # stride along each axis
-> ( output: tensor<?> );

fragment pad(
  input: tensor<scalar>,
  padding: (integer, integer)[],
  border: string = 'constant',
  value: scalar = 0.0 )
-> ( output: tensor<scalar> );

fragment tile<?>(
  input: tensor<?>,
  repeats: integer[] )
-> ( output: tensor<?> );

fragment gather<?>(
    input: tensor<?>,          # the tensor to gather from
    indices: tensor<integer>,   # the indices to gather at
    axis: integer = 0 )         # the axis to gather at
-> ( output: tensor<?> );

fragment cast<?>(
    input: tensor<> )          # the tensor to be cast
-> ( output: tensor<?> );      # the resulting tensor

fragment avg_roi_pool(
    input: tensor<scalar>,          # the feature maps to pool from
    rois: tensor<scalar>,          # the regions of interest
    batch_index: tensor<integer>,  # batch indices for each RoI
    output_size: integer[] )       # the desired output size
-> ( output: tensor<scalar> );

fragment max_roi_pool(
    input: tensor<scalar>,          # the feature maps to pool from
    rois: tensor<scalar>,          # the regions of interest
    batch_index: tensor<integer>,  # batch indices for each RoI
    output_size: integer[] )       # the desired output size
-> ( output: tensor<scalar> );

fragment roi_resample(
    input: tensor<scalar>,           # the feature maps to crop from
    rois: tensor<scalar>,           # the regions of interest
    batch_index: tensor<integer>,    # batch indices for each RoI
    output_size: integer[],          # the desired output size
    method: string = 'symmetric' )   # interpolation method
-> ( output: tensor<scalar> );

fragment avg_roi_align(
    input: tensor<scalar>,
    rois: tensor<scalar>,
    batch_index: tensor<integer>,
    output_size: integer[],
    sampling_rate: integer[],
    resize_method: string = 'symmetric' )
-> ( output: tensor<scalar> )
{
    size = [for i in range_of(output_size) yield output_size[i] * sampling_rate[i]];
    resized = roi_resample(input, rois, batch_index, output_size = size,
                          method = resize_method);
    output = avg_pool(resized, size = sampling_rate, stride = sampling_rate);
}

fragment max_roi_align(
    input: tensor<scalar>,
    rois: tensor<scalar>,
    batch_index: tensor<integer>,
    output_size: integer[],
    sampling_rate: integer[],
    resize_method: string = 'symmetric' )
-> ( output: tensor<scalar> )
{
    size = [for i in range_of(output_size) yield output_size[i] * sampling_rate[i]];
    resized = roi_resample(input, rois, batch_index, output_size = size,
                          method = resize_method);
    output = max_pool(resized, size = sampling_rate, stride = sampling_rate);
}

fragment matmul(
  A: tensor<scalar>,          # the left-hand-side argument
  B: tensor<scalar>,          # the right-hand-side argument
  transposeA: logical = false, # whether to transpose A
  transposeB: logical = false ) # whether to transpose B
-> ( C: tensor<scalar> );      # the resulting tensor

fragment update<?>(
  variable: tensor<?>,      # the variable to be updated
  value: tensor<?> )        # the new value
-> ( result: tensor<?> );    # the new value returned for convenience

fragment sigmoid( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    y = 1.0 / (1.0 + exp(-x));
}

fragment relu( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    y = max(x, 0.0);
}

fragment prelu( x: tensor<scalar>, alpha: tensor<scalar> )
-> ( y: tensor<scalar> )
{
    y = select(x < 0.0, alpha * x, x);
}

fragment leaky_relu( x: tensor<scalar>, alpha: scalar ) -> ( y: tensor<scalar> )
{
    y = prelu(x, alpha);
}

fragment elu( x: tensor<scalar>, alpha: scalar = 1.0 ) -> ( y: tensor<scalar> )
{
    y = select(x < 0.0, alpha * (exp(x) - 1.0), x);
}

fragment selu(
    x: tensor<scalar>,
    alpha: scalar = 1.67326319,
    lambda: scalar = 1.05070102 )
-> ( y: tensor<scalar> )
{
    y = lambda * select(x < 0.0, alpha * (exp(x) - 1.0), x);
}

fragment gelu( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    # the exact definition of gelu is x * Phi(x) where Phi(x) is the
    # CDF of the standard normal distribution, which can be approximated
    # for example by sigmoid(1.702 * x)

    y = x * sigmoid(1.702 * x);
}

fragment silu( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    y = x * sigmoid(x);
}

fragment softmax( x: tensor<scalar>, axes: integer[] = [1] )
-> ( y: tensor<scalar> )
{
    m = max_reduce(x, axes = axes);
    e = exp(x - m);
    y = e / sum_reduce(e, axes = axes);
}

fragment softplus( x: tensor<scalar> ) -> ( y: tensor<scalar> )
{
    y = log(exp(x) + 1.0);
}

fragment linear(
    input: tensor<scalar>,
    filter: tensor<scalar>,
    bias: tensor<scalar> = 0.0 )
-> ( output: tensor<scalar> )
{
    output = matmul(input, filter, transposeB = true) + bias;
}

fragment separable_conv(
    input: tensor<scalar>,
    plane_filter: tensor<scalar>,
    point_filter: tensor<scalar>,
    bias: tensor<scalar> = 0.0,
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [],
    groups: integer = 1 )
-> ( output: tensor<scalar> )
{
    filtered = conv(input, plane_filter, border = border, padding = padding,
                    stride = stride, dilation = dilation, groups = 0);
    output = conv(filtered, point_filter, bias, groups = groups);
}

fragment separable_deconv(
    input: tensor<scalar>,
    plane_filter: tensor<scalar>,
    point_filter: tensor<scalar>,
    bias: tensor<scalar> = 0.0,
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [],
    output_shape: integer[] = [],
    groups: integer = 1 )
-> ( output: tensor<scalar> )
{
    filtered = deconv(input, point_filter, groups = groups);
    output = deconv(filtered, plane_filter, bias, border = border,
                    padding = padding, stride = stride, dilation = dilation,
                    output_shape = output_shape, groups = 0);
}

fragment max_pool_with_index(
    input: tensor<scalar>,
    size: integer[],
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [] )
-> ( output: tensor<scalar>, index: tensor<integer> )
{
    index = argmax_pool(input, size = size, border = border, padding = padding,
                       stride = stride, dilation = dilation);
    output = sample(input, index, size = size, border = border, padding = padding,
                    stride = stride, dilation = dilation);
}

fragment max_pool(
    input: tensor<scalar>,
    size: integer[],
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [] )
-> ( output: tensor<scalar> )
{
    output, index = max_pool_with_index(input, size = size, border = border,
                                       padding = padding, stride = stride,
                                       dilation = dilation);
}

fragment avg_pool(
    input: tensor<scalar>,
    size: integer[],
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [] )
-> ( output: tensor<scalar> )
{
    output = box(input, size = size, border = border, padding = padding,
                 stride = stride, dilation = dilation, normalize = true);
}

fragment rms_pool(
    input: tensor<scalar>,
    size: integer[],
    border: string = 'constant',
    padding: (integer,integer)[] = [],
    stride: integer[] = [],
    dilation: integer[] = [] )
-> ( output: tensor<scalar> )
{
    output = sqrt(avg_pool(sqr(input), size = size, border = border,
                           padding = padding, stride = stride, dilation = dilation));
}

fragment local_response_normalization(
    input: tensor<scalar>,
    size: integer[],
    alpha: scalar = 1.0,
    beta: scalar = 0.5,
    bias: scalar = 1.0 )
-> ( output: tensor<scalar> )
{
    sigma = bias + alpha * box(sqr(input), size = size, normalize = true);
    output = input / (sigma ^ beta);
}

fragment local_mean_normalization(
    input: tensor<scalar>,
    size: integer[] )
-> ( output: tensor<scalar> )
{
    mean = box(input, size = size, normalize = true);
    output = input - mean;
}

fragment local_variance_normalization(
    input: tensor<scalar>,
    size: integer[],
    bias: scalar = 0.0,
    epsilon: scalar = 0.0 )
-> ( output: tensor<scalar> )
{
    sigma = box(sqr(input), size = size, normalize = true);
    output = input / max(sqrt(sigma) + bias, epsilon);
}

fragment local_contrast_normalization(
    input: tensor<scalar>,
    size: integer[],
    bias: scalar = 0.0,
    epsilon: scalar = 0.0 )
-> ( output: tensor<scalar> )
{
    centered = local_mean_normalization(input, size = size);
    output = local_variance_normalization(centered, size = size, bias = bias,
                                         epsilon = epsilon);
}

fragment l1_normalization(
    input: tensor<scalar>,
    axes: integer[],
    bias: scalar = 0.0,
    epsilon: scalar = 0.0 )
-> ( output: tensor<scalar> )
{
    sigma = sum_reduce(abs(input), axes = axes);
    output = input / max(sigma + bias, epsilon);
}

fragment l2_normalization(
    input: tensor<scalar>,
    axes: integer[],
    bias: scalar = 0.0,
    epsilon: scalar = 0.0 )
-> ( output: tensor<scalar> )
{
    sigma = sum_reduce(sqr(input), axes = axes);
    output = input / max(sqrt(sigma) + bias, epsilon);
}

fragment batch_normalization(
    input: tensor<scalar>,
    mean: tensor<scalar>,
    variance: tensor<scalar>,
    offset: tensor<scalar>,
    scale: tensor<scalar>,
    epsilon: scalar )
-> ( output: tensor<scalar> )
{
    output = offset + scale * (input - mean) / sqrt(variance + epsilon);
}

fragment min_max_linear_quantize(
    x: tensor<scalar>,
    min: tensor<scalar>,
    max: tensor<scalar>,
    bits: integer,
    signed: logical,
    symmetric: logical )
-> ( y: tensor<scalar> )
{
    r = scalar(2 ^ bits - 1 - integer(signed && symmetric));
    z = clamp(x, min, max);
    p = scalar(2 ^ (bits - 1) - integer(symmetric) if signed else 0);
    q = round((z - min) / (max - min) * r) - p;
    y = (q + p) / r * (max - min) + min;
}

fragment zero_point_linear_quantize(
    x: tensor<scalar>,
    zero_point: integer,
    scale: scalar,
    bits: integer,
    signed: logical,
    symmetric: logical )
-> ( y: tensor<scalar> )
{
    z = round(x / scale) + scalar(zero_point);
    r = scalar(2 ^ (bits - 1) - 1 if signed else 2 ^ bits - 1);
    q = clamp(z, 0.0 if !signed else -r if symmetric else -r - 1.0, r);
    y = (q - scalar(zero_point)) * scale;
}

fragment linear_quantize(
    x: tensor<scalar>,
    min: tensor<scalar>,
    max: tensor<scalar>,
    bits: integer )
-> ( y: tensor<scalar> )
{
    y = min_max_linear_quantize(x, min = min, max = max, bits = bits,
                                signed = false, symmetric = false);
}

fragment logarithmic_quantize(
    x: tensor<scalar>,
    max: tensor<scalar>,
    bits: integer )
-> ( y: tensor<scalar> )
{
    m = ceil(log2(max));
    r = scalar(2 ^ bits - 1);
    q = round(clamp(log2(abs(x)), m - r, m));
    y = sign(x) * 2.0 ^ q;
}

fragment copy_n<?>( x: tensor<?>, times: integer ) -> ( y: tensor<?>[] )
{
    y = [x] * times;
}

fragment add_n( x: tensor<scalar>[] ) -> ( y: tensor<scalar> )
{
    y = x[0] + add_n(x[1:]) if length_of(x) > 0 else 0.0;
}

fragment moments( input: tensor<scalar>, axes: integer[] )
-> ( mean: tensor<scalar>, variance: tensor<scalar> )
{
    mean = mean_reduce(input, axes = axes);
    variance = mean_reduce(sqr(input - mean), axes = axes);
}
)nnef";
}

}  // namespace nnref::nnef
