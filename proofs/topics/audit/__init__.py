"""The statistical DP auditor: soundness, power on the bug zoo, assert_dp, other libraries."""
