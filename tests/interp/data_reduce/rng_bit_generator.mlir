// stablehlo.rng_bit_generator reproduces XLA's bits: the spec's THREE_FRY example, the Philox-4x32
// known-answer vector of Random123 (key 0, counter 0), DEFAULT = PHILOX, narrow and odd shapes,
// and 128-bit counter carries.
module {
  func.func @main() {
    %s = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
    %ns, %o = "stablehlo.rng_bit_generator"(%s) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
    %ens = stablehlo.constant dense<[1, 6]> : tensor<2xui64>
    %eo = stablehlo.constant dense<[[9236835810183407956, 16087790271692313299], [18212823393184779219, 2658481902456610144]]> : tensor<2x2xui64>
    stablehlo.custom_call @check.expect_eq(%ns, %ens) {has_side_effect = true} : (tensor<2xui64>, tensor<2xui64>) -> ()
    stablehlo.custom_call @check.expect_eq(%o, %eo) {has_side_effect = true} : (tensor<2x2xui64>, tensor<2x2xui64>) -> ()

    // 32-bit THREE_FRY output: the shape is split along its first even dimension.
    %s2 = stablehlo.constant dense<[1311768467750121217, 5]> : tensor<2xui64>
    %ns2, %o2 = "stablehlo.rng_bit_generator"(%s2) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
    %ens2 = stablehlo.constant dense<[1311768467750121217, 8]> : tensor<2xui64>
    %eo2 = stablehlo.constant dense<[[745941096, 3533642046, 872646992], [627356009, 285964198, 187405780]]> : tensor<2x3xui32>
    stablehlo.custom_call @check.expect_eq(%ns2, %ens2) {has_side_effect = true} : (tensor<2xui64>, tensor<2xui64>) -> ()
    stablehlo.custom_call @check.expect_eq(%o2, %eo2) {has_side_effect = true} : (tensor<2x3xui32>, tensor<2x3xui32>) -> ()
    // 16-bit output of odd length: split along the largest dimension, words truncated.
    %ns3, %o3 = "stablehlo.rng_bit_generator"(%s2) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui16>)
    %ens3 = stablehlo.constant dense<[1311768467750121217, 7]> : tensor<2xui64>
    %eo3 = stablehlo.constant dense<[10344, 45417, 6462]> : tensor<3xui16>
    stablehlo.custom_call @check.expect_eq(%ns3, %ens3) {has_side_effect = true} : (tensor<2xui64>, tensor<2xui64>) -> ()
    stablehlo.custom_call @check.expect_eq(%o3, %eo3) {has_side_effect = true} : (tensor<3xui16>, tensor<3xui16>) -> ()

    // Philox-4x32-10 known answer; DEFAULT is PHILOX; a 2-word state reuses the key as the high
    // counter half and keeps only the low half.
    %p = stablehlo.constant dense<[0, 0, 0]> : tensor<3xui64>
    %nsp, %op = "stablehlo.rng_bit_generator"(%p) <{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}> : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
    %ekat = stablehlo.constant dense<[1713891541, 3781805453, 3159862348, 2600524760]> : tensor<4xui32>
    %ensp = stablehlo.constant dense<[0, 1, 0]> : tensor<3xui64>
    stablehlo.custom_call @check.expect_eq(%op, %ekat) {has_side_effect = true} : (tensor<4xui32>, tensor<4xui32>) -> ()
    stablehlo.custom_call @check.expect_eq(%nsp, %ensp) {has_side_effect = true} : (tensor<3xui64>, tensor<3xui64>) -> ()
    %p2 = stablehlo.constant dense<[0, 0]> : tensor<2xui64>
    %nsd, %od = "stablehlo.rng_bit_generator"(%p2) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)
    %ekat2 = stablehlo.constant dense<[[1713891541, 3781805453], [3159862348, 2600524760]]> : tensor<2x2xui32>
    %ensd = stablehlo.constant dense<[0, 1]> : tensor<2xui64>
    stablehlo.custom_call @check.expect_eq(%od, %ekat2) {has_side_effect = true} : (tensor<2x2xui32>, tensor<2x2xui32>) -> ()
    stablehlo.custom_call @check.expect_eq(%nsd, %ensd) {has_side_effect = true} : (tensor<2xui64>, tensor<2xui64>) -> ()

    // 64-bit Philox output whose counter carries into the high half.
    %pc = stablehlo.constant dense<[1311768467750121217, 18446744073709551615, 7]> : tensor<3xui64>
    %nsc, %oc = "stablehlo.rng_bit_generator"(%pc) <{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}> : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3xui64>)
    %eoc = stablehlo.constant dense<[4929184019982753727, 2275539480777405445, 6789196413668106635]> : tensor<3xui64>
    %ensc = stablehlo.constant dense<[1311768467750121217, 1, 8]> : tensor<3xui64>
    stablehlo.custom_call @check.expect_eq(%oc, %eoc) {has_side_effect = true} : (tensor<3xui64>, tensor<3xui64>) -> ()
    stablehlo.custom_call @check.expect_eq(%nsc, %ensc) {has_side_effect = true} : (tensor<3xui64>, tensor<3xui64>) -> ()
    func.return
  }
}
