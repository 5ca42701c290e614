# Warnings for pkb's own targets. Third-party headers come in as SYSTEM so their warnings stay quiet.
function(pkb_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                         -Wno-unused-parameter)
  if(PKB_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(PKB_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
