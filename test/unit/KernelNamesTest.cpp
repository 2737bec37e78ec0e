#include "roofcheck/KernelNames.h"

#include <gtest/gtest.h>

#include <set>

using namespace roofcheck;

namespace {

// Demangled names as CUPTI reports them for PyTorch and cuBLAS kernels.
const std::string Fill = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                         "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)";
const std::string Gelu =
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(c10::"
    "BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(c10::"
    "BFloat16)#1}, std::array<char*, 2ul>)";
const std::string ScaleList =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 2, 1, 1>, "
    "std::multiplies<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, "
    "at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 2, 1, 1>, std::multiplies<float>, float)";
const std::string LerpList =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::PointwiseOpScalarFunctor<float, 2, 2, "
    "1>, std::multiplies<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, "
    "at::native::(anonymous namespace)::PointwiseOpScalarFunctor<float, 2, 2, 1>, std::multiplies<float>, float)";
const std::string AdamList =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, "
    "4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, bool, float*, float*>("
    "at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous "
    "namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, "
    "double, double, bool, float*, float*)";

TEST(KernelNames, TakesADemangledNameApart) {
  DemangledName n = parseDemangled(Fill);
  EXPECT_EQ(n.scope, "at::native");
  EXPECT_EQ(n.base, "vectorized_elementwise_kernel");
  ASSERT_EQ(n.templateArgs.size(), 3u);
  EXPECT_EQ(n.templateArgs[0], "4");
  EXPECT_EQ(n.templateArgs[2], "std::array<char*, 1ul>");
  EXPECT_EQ(n.params, "int, at::native::FillFunctor<float>, std::array<char*, 1ul>");

  DemangledName plain = parseDemangled("matmul_naive(float const*, float const*, float*, int)");
  EXPECT_EQ(plain.base, "matmul_naive");
  EXPECT_FALSE(plain.isTemplate);
  EXPECT_EQ(parseDemangled("nvjet_tst_128x256_64x4_1x2_h_bz_coopB_NTN").base, "nvjet_tst_128x256_64x4_1x2_h_bz_coopB_NTN");
  DemangledName anonymous = parseDemangled("(anonymous namespace)::softmax_rows(float*, int)");
  EXPECT_EQ(anonymous.scope, "(anonymous namespace)");
  EXPECT_EQ(anonymous.base, "softmax_rows");
  EXPECT_EQ(parseDemangled(Gelu).templateArgs.size(), 3u);
  EXPECT_TRUE(parseDemangled("void k<>()").isTemplate);
}

TEST(KernelNames, SimplifiesScopesAndLambdas) {
  EXPECT_EQ(simplifyCppText("std::array<char*, 2ul>"), "array<char*, 2ul>");
  EXPECT_EQ(simplifyCppText(parseDemangled(Gelu).templateArgs[1]), "GeluCUDAKernelImpl::lambda");
  EXPECT_EQ(simplifyCppText("at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 2, 1, 1>"),
            "BinaryOpScalarFunctor<float, 2, 1, 1>");
  EXPECT_EQ(simplifyCppText("unsigned long const*"), "unsigned long const*");
}

TEST(KernelNames, BaseNameAloneWhenItIsUnique) {
  std::vector<std::string> names =
      shortKernelNames({Fill, "matmul_naive(float const*, float const*, float*, int)", ScaleList});
  EXPECT_EQ(names, (std::vector<std::string>{"vectorized_elementwise_kernel", "matmul_naive",
                                             "multi_tensor_apply_kernel"}));
}

TEST(KernelNames, WidensOnlyToTellKernelsApart) {
  // Short template arguments: shown in full.
  EXPECT_EQ(shortKernelNames({"void reduce<256, float>(float*)", "void reduce<512, float>(float*)"}),
            (std::vector<std::string>{"reduce<256, float>", "reduce<512, float>"}));
  // Long ones: the words that differ, within the width.
  EXPECT_EQ(shortKernelNames({ScaleList, LerpList}),
            (std::vector<std::string>{"multi_tensor_apply_kernel<…BinaryOpScalarFunctor…>",
                                      "multi_tensor_apply_kernel<…PointwiseOpScalarFunctor…>"}));
  EXPECT_EQ(shortKernelNames({Fill, Gelu}),
            (std::vector<std::string>{"vectorized_elementwise_kernel<…FillFunctor…>",
                                      "vectorized_elementwise_kernel<…GeluCUDAKernelImpl…>"}));
  // Even the differing words are too wide: the base is cut, the words stay whole.
  std::vector<std::string> cut = shortKernelNames({ScaleList, AdamList});
  EXPECT_EQ(cut[0], "multi_tensor_apply_kernel<…TensorListMetadata…>");
  EXPECT_EQ(cut[1], "multi_tensor_apply_kern…<…FusedOptimizerTensorListMetadata…>");
  // Scopes, then parameters.
  EXPECT_EQ(shortKernelNames({"a::scale(float*)", "b::scale(float*)"}),
            (std::vector<std::string>{"a::scale", "b::scale"}));
  EXPECT_EQ(shortKernelNames({"scale(float*, int)", "scale(double*, int)"}),
            (std::vector<std::string>{"scale(…float…)", "scale(…double…)"}));
  // A plain kernel beside template instances of the same name.
  EXPECT_EQ(shortKernelNames({"void k(float*)", "void k<1>(float*)", "void k<2>(float*)"}),
            (std::vector<std::string>{"k", "k<1>", "k<2>"}));
  // Nothing in the name tells them apart.
  EXPECT_EQ(shortKernelNames({"scale(float*)", "scale(float*)"}),
            (std::vector<std::string>{"scale #1", "scale #2"}));
}

TEST(KernelNames, ShortNamesStayUniqueAndNarrow) {
  std::vector<std::string> input = {Fill, Gelu, ScaleList, LerpList, AdamList};
  for (int i = 0; i < 30; ++i)
    input.push_back("void tile_kernel<" + std::to_string(i % 10) + ", " + std::string(80, 'x') + ">(" +
                    (i < 10 ? "float" : i < 20 ? "double" : "half") + "*)");
  std::vector<std::string> names = shortKernelNames(input, 40);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const std::string &n : names)
    EXPECT_LE(displayWidth(n), 40u) << n;
}

TEST(KernelNames, FitsWidthWithAnEllipsisInTheMiddle) {
  EXPECT_EQ(fitWidth("short", 10), "short");
  std::string cut = fitWidth("abcdefghijklmnopqrstuvwxyz", 10);
  EXPECT_EQ(displayWidth(cut), 10u);
  EXPECT_EQ(cut, "abcdef…xyz");
  EXPECT_EQ(displayWidth("a…b"), 3u);
  EXPECT_EQ(displayWidth(fitWidth("…………………………", 4)), 4u);
}

TEST(KernelNames, CutsTheBaseBeforeWhatTellsKernelsApart) {
  EXPECT_EQ(fitShortName("multi_tensor_apply_kernel<…PointwiseOpScalarFunctor…>", 42),
            "multi_tensor_…<…PointwiseOpScalarFunctor…>");
  EXPECT_EQ(fitShortName("reduce_kernel_with_a_long_name #2", 20), "reduce_kernel_wi… #2");
  EXPECT_EQ(fitShortName("scale #12", 7), "scal…12"); // too narrow to keep the number whole
  EXPECT_EQ(fitShortName("fits", 4), "fits");
}

} // namespace
