"""Lesson 15, aligning a judge with people: the protocol, the designs measured, and what they show.

=================  ==============================================================================
module             what it holds
=================  ==============================================================================
``protocol``       the written rule (committed before any figure), the candidates it names
=================  ==============================================================================
"""
