--TEST--
Async\Scope is final, not clonable or serializable, and its constructor runs once; it has no dynamic properties
--FILE--
<?php
$s = new Async\Scope();
try { $s->__construct(); } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { clone $s; } catch (Error $e) { echo $e->getMessage(), "\n"; }
try { serialize($s); } catch (Exception $e) { echo $e->getMessage(), "\n"; }
try { $s->foo = 1; } catch (Error $e) { echo $e->getMessage(), "\n"; }
var_dump((new ReflectionClass($s))->isFinal(), $s instanceof Async\ScopeProvider);
?>
--EXPECT--
Cannot call constructor twice
Trying to clone an uncloneable object of class Async\Scope
Serialization of 'Async\Scope' is not allowed
Cannot create dynamic property Async\Scope::$foo
bool(true)
bool(true)
