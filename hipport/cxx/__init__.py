"""The C/C++/CUDA front end: lexical sweep, targeted passes, libclang where semantics matter."""
