# Embeds a file in the binary as a C array: run at build time by add_custom_command as
#   cmake -DIN=FILE -DOUT=FILE.c -DNAME=SYMBOL -P embed_file.cmake
# and writes OUT defining `const unsigned char SYMBOL[]` (the bytes of IN, then a NUL so that it is
# also a C string) and `const size_t SYMBOL_len` (the byte count, without the NUL).
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" nhex)
math(EXPR len "${nhex} / 2")
# "3c21..." -> "0x3c,0x21,...", 16 bytes a line
string(REPEAT "[0-9a-f]" 32 line)
string(REGEX REPLACE "(${line})" "\\1\n  " hex "${hex}")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT}
  "/* Generated from ${IN} by cmake/embed_file.cmake: do not edit. */\n"
  "#include <stddef.h>\n"
  "extern const unsigned char ${NAME}[];\n"
  "extern const size_t ${NAME}_len;\n"
  "const unsigned char ${NAME}[] = {\n  ${bytes}0x00};\n"
  "const size_t ${NAME}_len = ${len};\n")
