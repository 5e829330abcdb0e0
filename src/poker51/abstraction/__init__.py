"""abstraction"""
