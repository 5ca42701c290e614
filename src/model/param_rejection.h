// A 400 that names a request parameter: the one parameter to drop or lower so the same prompt can
// be asked once more (the provider's 400 text is the final word on what a
// model takes). Never the prompt, never a parameter that was not sent, never one changed before,
// so the retries it causes are bounded by the number of parameters.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/model/error_policy.h"
#include "src/model/request_settings.h"

namespace pkb::model {

/// What to change after a 400 or 422 whose error names a parameter of `sent`; empty when it names
/// none, names one already in `done`, or (for max tokens) gives no smaller limit.
std::optional<RequestAdjustment> adjustment_for(const ErrorBody& error, const WireSettings& sent,
                                                const std::vector<RequestAdjustment>& done);

/// The largest output cap below `sent` that an error message names: "supports at most 16384",
/// "32000 > 8192, which is the maximum", "to 65537 (exclusive)", or vLLM's context length minus
/// the prompt's tokens.
std::optional<int> token_limit_in(const std::string& message, int sent);

}  // namespace pkb::model
