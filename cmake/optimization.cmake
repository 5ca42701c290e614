# Optimization levels of pkb's own targets. Code that parses, formats and orchestrates (JSON,
# flags, HTTP, plans, results files, driver calls) is compiled at -O1 in optimized builds: its speed
# never shows in a run (the network, NVRTC, the GPU and libtorch dominate), and -O3 costs it about
# 40% more compile time (nlohmann/json and CLI11 templates), which a newcomer's first build pays.
# Hashing, checking, scoring statistics, timing statistics and the references keep the build
# type's level.
function(pkb_light_optimization target)
  if(CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo|MinSizeRel)$")
    target_compile_options(${target} PRIVATE -O1)
  endif()
endfunction()
