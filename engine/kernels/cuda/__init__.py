"""CUDA kernels through CuPy, registered under device type "GPU".

backend.py picks the array module (CuPy, or the simulated GPU of simulated.py); registry.py
registers every kernel module's table for it when the executor first looks up a GPU kernel.
Each kernel module has `register_all(xp)`: its kernels are closures over `xp`, so the very
code that runs on a GPU runs in the tests on the simulated one.
"""
